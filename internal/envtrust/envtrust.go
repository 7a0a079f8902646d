package envtrust

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/mnemo-dev/mnemo/internal/childenv"
	"github.com/mnemo-dev/mnemo/internal/project"
)

// A Finding is a variable the repository sets.
type Finding struct {
	Key  string `json:"key"`
	File string `json:"file"` // the tracked file that sets it, relative to the repository's root, slash-separated
}

// String names the variable and the file: never the value, which may be a
// secret.
func (f Finding) String() string { return f.Key + " (" + f.File + ")" }

// List names every finding, for a log line or a report.
func List(fs []Finding) string {
	s := make([]string, len(fs))
	for i, f := range fs {
		s[i] = f.String()
	}
	return strings.Join(s, ", ")
}

// Options say whose environment to check, and where.
type Options struct {
	// Agent is the agent that started the process: claude-code, gemini,
	// codex, cursor; "" when it is not known (an MCP server), and then
	// every agent's files count.
	Agent string
	// Dirs are the folders the agent works in (its project folder, the
	// working folder): each one's files and its parents' up to the root
	// of its git repository count. A folder outside git has no tracked
	// file.
	Dirs []string
	// Shell says that the process is a command the agent's shell tool
	// ran (mnemo ingest, say), not a hook: some agents give those what
	// they give no hook (Codex's shell_environment_policy).
	Shell bool
	// Getenv is the environment checked.
	Getenv func(string) string
	// Home is the user's home folder, where the user's own settings are
	// (~/.claude/settings.json: $CLAUDE_CONFIG_DIR unless the repository
	// set it). When the repository set HOME, the user database's home is
	// used instead.
	Home string
}

// Check returns the variables of the environment that steer mnemo
// ([Steers]) and whose values come from files the repositories around
// o.Dirs track: the value a tracked file
// sets (or may set, when the agent expands $VAR in it, or holds in its
// text), unless one of the user's own files (untracked, or outside the
// repository) sets the same value. One finding per variable, sorted. The
// error says what could not be read; what is returned is still what to
// ignore: when git cannot answer, a file counts as tracked.
func Check(ctx context.Context, o Options) ([]Finding, error) { return o.scan(ctx, true) }

// Declared returns every variable that steers mnemo which files the
// repositories around o.Dirs track set to a value the user's own files do
// not set too,
// whatever the environment holds: what an agent's hooks would see of
// the repository's, and mnemo ignore.
func Declared(ctx context.Context, o Options) ([]Finding, error) { return o.scan(ctx, false) }

// A found is a finding with the value it is about, which never leaves the
// package: it may be a secret.
type found struct {
	Finding
	value string
}

func (o Options) scan(ctx context.Context, byEnv bool) ([]Finding, error) {
	value := func(s setting) string {
		if byEnv {
			return o.Getenv(s.key)
		}
		return s.value
	}
	cands, proposed, errs := o.candidates(ctx, byEnv)
	if len(cands) == 0 {
		return nil, errors.Join(errs...)
	}
	var roots []string
	for _, c := range cands {
		if !slices.Contains(roots, c.root) {
			roots = append(roots, c.root)
		}
	}
	env := gitEnv(proposed)
	// What the user's own files vouch for needs no question to git about
	// the repository's files.
	vouched := o.userSettings(ctx, proposed, roots, env)
	isVouched := func(key, v string) bool { return slices.Contains(vouched[key], v) }
	cands = slices.DeleteFunc(cands, func(c cand) bool {
		return !slices.ContainsFunc(c.sets, func(s setting) bool { return !isVouched(s.key, value(s)) })
	})
	texts, gitErrs := repoTexts(ctx, cands, env)
	errs = append(errs, gitErrs...)
	var out []found
	for _, c := range cands {
		t, tracked := texts[c.abs]
		if !tracked {
			for _, s := range c.src.read(c.data) { // an untracked file is the user's
				vouched[s.key] = append(vouched[s.key], s.value)
			}
			continue
		}
		var sets []setting
		for _, text := range t {
			sets = append(sets, steering(c.src.read(text))...)
		}
		if byEnv {
			sets = o.matching(sets, t)
		}
		for _, s := range sets {
			out = append(out, found{Finding{Key: s.key, File: c.rel}, value(s)})
		}
	}
	out = slices.DeleteFunc(out, func(f found) bool { return isVouched(f.Key, f.value) })
	return findings(out), errors.Join(errs...)
}

// A cand is a project file that sets variables that steer mnemo.
type cand struct {
	projectFile
	sets []setting // those (with their value in the environment, when checking one)
}

// candidates reads the project files, keeping those that set a variable
// that steers mnemo (to its value in the environment, byEnv), and which
// variables they propose.
func (o Options) candidates(ctx context.Context, byEnv bool) ([]cand, map[string]bool, []error) {
	var cands []cand
	proposed := make(map[string]bool)
	var errs []error
	for _, pf := range o.projectFiles(ctx) {
		data, err := readRegular(pf.abs)
		if err != nil {
			if !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, err)
			}
			continue
		}
		sets := steering(pf.src.read(data))
		if byEnv {
			sets = o.matching(sets, [][]byte{data})
		}
		if len(sets) == 0 {
			continue
		}
		for _, s := range sets {
			proposed[s.key] = true
		}
		pf.data = data
		cands = append(cands, cand{pf, sets})
	}
	return cands, proposed, errs
}

// repoTexts asks git, one repository at a time, what of the candidates is
// the repository's ([repo.texts]).
func repoTexts(ctx context.Context, cands []cand, env []string) (map[string][][]byte, []error) {
	byRoot := make(map[string][]file)
	for _, c := range cands {
		byRoot[c.root] = append(byRoot[c.root], c.file)
	}
	texts := make(map[string][][]byte)
	var errs []error
	for root, files := range byRoot {
		t, err := repo{root: root, env: env}.texts(ctx, files)
		if err != nil {
			errs = append(errs, err)
		}
		for k, v := range t {
			texts[k] = v
		}
	}
	return texts, errs
}

// steering returns the settings of variables that steer mnemo ([Steers]):
// the others are left to the agent, and cost no question to git.
func steering(sets []setting) []setting {
	return slices.DeleteFunc(sets, func(s setting) bool { return !Steers(s.key) })
}

// matching returns the settings of sets whose variable the environment
// holds with the value they set, or with any value when the agent
// expands it, or with a value found in one of texts (the files they come
// from): what a parser that reads a file unlike the agent would miss.
func (o Options) matching(sets []setting, texts [][]byte) []setting {
	var out []setting
	for _, s := range sets {
		v := o.Getenv(s.key)
		if v == "" {
			continue
		}
		if s.value == v || s.expands || slices.ContainsFunc(texts, func(t []byte) bool { return bytes.Contains(t, []byte(v)) }) {
			out = append(out, s)
		}
	}
	return out
}

// userSettings returns the values the user's own files set, by
// variable: the user's Claude Code settings (in $CLAUDE_CONFIG_DIR unless
// a project file proposes it), Codex's config.toml (in $CODEX_HOME, the
// same), Gemini CLI's, and the managed ones. One
// that a repository (of roots) tracks is no user's file, whatever the
// environment says.
func (o Options) userSettings(ctx context.Context, proposed map[string]bool, roots []string, env []string) map[string][]string {
	vouched := make(map[string][]string)
	home := o.Home
	if proposed["HOME"] {
		home = ""
		if u, err := user.Current(); err == nil {
			home = u.HomeDir
		}
	}
	claudeHome := o.Getenv("CLAUDE_CONFIG_DIR")
	if claudeHome == "" || proposed["CLAUDE_CONFIG_DIR"] {
		claudeHome = filepath.Join(home, ".claude")
	}
	codexHome := o.Getenv("CODEX_HOME")
	if codexHome == "" || proposed["CODEX_HOME"] {
		codexHome = filepath.Join(home, ".codex")
	}
	srcs := append([]source{
		{path: filepath.ToSlash(filepath.Join(claudeHome, "settings.json")), read: readClaudeSettings},
		{path: filepath.ToSlash(filepath.Join(codexHome, "config.toml")), read: readCodexConfig},
	}, userSources...)
	for _, src := range srcs {
		path := filepath.FromSlash(src.path)
		if !filepath.IsAbs(path) {
			if home == "" {
				continue
			}
			path = filepath.Join(home, path)
		}
		data, err := readRegular(path)
		if err != nil || o.trackedIn(ctx, path, data, roots, env) {
			continue
		}
		for _, s := range src.read(data) {
			vouched[s.key] = append(vouched[s.key], s.value)
		}
	}
	return vouched
}

// trackedIn reports whether one of the repositories of roots tracks the
// file at path (or cannot say).
func (o Options) trackedIn(ctx context.Context, path string, data []byte, roots []string, env []string) bool {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return true
	}
	for _, root := range roots {
		rel, err := filepath.Rel(root, real)
		if err != nil || !filepath.IsLocal(rel) {
			continue
		}
		texts, _ := repo{root: root, env: env}.texts(ctx, []file{{abs: real, rel: filepath.ToSlash(rel), data: data}})
		if _, ok := texts[real]; ok {
			return true
		}
	}
	return false
}

// findings returns one finding per variable, the first file's, sorted.
func findings(fs []found) []Finding {
	slices.SortFunc(fs, func(a, b found) int {
		return strings.Compare(a.Key+"\x00"+a.File, b.Key+"\x00"+b.File)
	})
	var out []Finding
	for _, f := range fs {
		if len(out) == 0 || out[len(out)-1].Key != f.Key {
			out = append(out, f.Finding)
		}
	}
	return out
}

// A projectFile is a file of a repository that may set variables.
type projectFile struct {
	file
	src  source
	root string
}

// projectFiles lists the files that set the environment of o.Agent's
// hooks, in each of o.Dirs and the folders above it up to its git
// repository's root.
func (o Options) projectFiles(ctx context.Context) []projectFile {
	var out []projectFile
	seen := make(map[string]bool)
	for _, d := range o.Dirs {
		if d == "" {
			continue
		}
		real, err := filepath.EvalSymlinks(d)
		if err != nil || seen[real] {
			continue
		}
		seen[real] = true
		// No $GIT_CEILING_DIRECTORIES: the repository may have set it
		// to hide itself.
		p, err := project.Find(ctx, real, project.Env{Home: o.Home})
		if err != nil || !p.InGit() {
			continue
		}
		for dir := real; ; dir = filepath.Dir(dir) {
			for _, src := range projectSources {
				abs := filepath.Join(dir, filepath.FromSlash(src.path))
				if !src.applies(o.Agent, o.Shell) || seen[abs] {
					continue
				}
				seen[abs] = true
				rel, err := filepath.Rel(p.Root, abs)
				if err != nil {
					continue
				}
				out = append(out, projectFile{file{abs: abs, rel: filepath.ToSlash(rel)}, src, p.Root})
			}
			if dir == p.Root || dir == filepath.Dir(dir) {
				break
			}
		}
	}
	return out
}

// maxSettingsFile bounds a settings or environment file as read: each is
// read by every hook, and a repository can commit a file of any size.
const maxSettingsFile = 4 << 20

// readRegular reads a regular file (through links); anything else (a
// folder, a device, a pipe) sets nothing an agent could read either. It
// is opened without blocking: a named pipe opened to be read waits for a
// writer. A file past maxSettingsFile is an error naming it.
func readRegular(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, os.ErrNotExist
	}
	data, err := io.ReadAll(io.LimitReader(f, maxSettingsFile+1))
	if err == nil && len(data) > maxSettingsFile {
		err = fmt.Errorf("%s: larger than %d MB: not read", path, maxSettingsFile>>20)
	}
	return data, err
}

// Steers reports whether the variable key is one a repository must not
// choose for mnemo: mnemo's own (MNEMO_*: the extractor, the state folder,
// the clock...); where a session goes and with which credentials, mnemo's
// providers' and the claude child's (ANTHROPIC_* and OPENAI_* but model
// names, AWS_*, Vertex, Foundry and Bedrock settings, an OAuth token);
// proxies and certificates; the programs mnemo starts and how they load
// (PATH, LD_*, DYLD_*, NODE_OPTIONS...); the home, configuration and
// temporary folders, git's included. When a repository set one, the value
// it replaced is lost, and a session is extracted offline.
func Steers(key string) bool {
	k := strings.ToUpper(key)
	switch k {
	case "HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME", "XDG_CONFIG_HOME", "TMPDIR",
		"PATH", "NODE_OPTIONS", "NODE_EXTRA_CA_CERTS", "NODE_TLS_REJECT_UNAUTHORIZED", "NODE_USE_ENV_PROXY",
		"SSL_CERT_FILE", "SSL_CERT_DIR", "GOOGLE_APPLICATION_CREDENTIALS", "CLOUD_ML_REGION":
		return true
	}
	switch {
	case strings.HasPrefix(k, "ANTHROPIC_"), strings.HasPrefix(k, "OPENAI_"):
		return !strings.Contains(k, "MODEL")
	case strings.HasPrefix(k, "MNEMO_"), strings.HasPrefix(k, "AWS_"), strings.HasPrefix(k, "GIT_"),
		strings.HasPrefix(k, "VERTEX_REGION_"), strings.HasPrefix(k, "LD_"), strings.HasPrefix(k, "DYLD_"):
		return true
	}
	return strings.HasSuffix(k, "_PROXY") || childenv.Reaches(k)
}
