package cli

import (
	"context"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/agent"
	"github.com/mnemo-dev/mnemo/internal/project"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// wiringChecks report how Claude Code reaches mnemo: the binary on PATH and
// the one the hooks and MCP server run, one line each whatever they find;
// machine paths in committed files; the per-clone settings file kept out
// of git; and autoMemoryDirectory.
func wiringChecks(ctx context.Context, f *Factory, p *project.Project, o agent.Options) []check {
	reg := agent.Inspect(o)
	onPath, _ := exec.LookPath(agent.PathProgram)
	if onPath != "" {
		onPath = realPath(onPath)
	}
	out := []check{binaryCheck(onPath, reg)}

	hooks := check{Name: "hooks", Status: "ok", Detail: hookPlaces(reg)}
	if missing := reg.Missing(); len(missing) > 0 {
		hooks = check{Name: "hooks", Status: "fail", Detail: "not registered with Claude Code: " + strings.Join(missing, ", "), Fix: "mnemo init"}
	}
	mcp := check{Name: "mcp", Status: "ok", Detail: strings.Join(reg.Servers, ", ")}
	if len(reg.Servers) == 0 && !reg.Plugin {
		mcp = check{Name: "mcp", Status: "warn", Detail: "the MCP server mnemo is not registered", Fix: "mnemo init"}
	}
	// A file that cannot be read registers nothing the agent can use:
	// its problem is the finding, not what it seems to lack.
	told := map[*check]bool{}
	for _, file := range slices.Sorted(maps.Keys(reg.Unreadable)) {
		c := &hooks
		if base := filepath.Base(file); base == ".mcp.json" || base == ".claude.json" {
			c = &mcp
		}
		if !told[c] {
			told[c] = true
			c.Status, c.Detail = "fail", displayPath(f, file)+" cannot be read: "+reg.Unreadable[file]
			c.Fix = "correct or remove " + displayPath(f, file) + ", then mnemo init"
		}
	}
	for _, file := range slices.Sorted(maps.Keys(reg.Runs)) {
		c := &hooks
		if base := filepath.Base(file); base == ".mcp.json" || base == ".claude.json" {
			c = &mcp
		}
		for _, prog := range reg.Runs[file] {
			if problem := programProblem(prog, onPath); problem != "" && c.Status != "fail" {
				c.Status, c.Detail, c.Fix = "fail", displayPath(f, file)+" runs "+prog+": "+problem, "mnemo init (with the mnemo you use now)"
			}
		}
	}
	out = append(out, hooks, mcp, committedCheck(f, o, reg))
	if c, ok := localSettingsCheck(ctx, f, p, o); ok {
		out = append(out, c)
	}
	for _, scope := range []string{"project", "user"} { // Codex reads both
		oc := o
		oc.Scope = scope
		if c, ok := codexTrustCheck(f, oc, onPath); ok {
			out = append(out, c)
		}
	}
	if o.Shared {
		out = append(out, autoMemoryCheck(f, o, reg))
		if p.InGit() {
			out = append(out, mergeCheck(ctx, p, o))
		}
	}
	return out
}

// codexTrustCheck says whether Codex runs the mnemo hooks of its
// hooks.json (the project's, or Codex's own for the user scope): the mnemo
// each runs is there, the project is trusted, each hook's hash is current
// in Codex's config.toml. No check when mnemo is not wired into Codex.
func codexTrustCheck(f *Factory, o agent.Options, onPath string) (check, bool) {
	hooks, err := agent.CodexHooks(o.CodexHooksFile())
	if err == nil && !slices.ContainsFunc(hooks, func(h agent.CodexHook) bool { return h.Mnemo }) {
		return check{}, false
	}
	for _, h := range hooks {
		if problem := programProblem(h.Program, onPath); h.Mnemo && problem != "" {
			return check{Name: "codex", Status: "fail", Detail: displayPath(f, o.CodexHooksFile()) + " runs " + h.Program + ": " + problem,
				Fix: "mnemo init --agent codex --trust-hooks (with the mnemo you use now)"}, true
		}
	}
	problems, err := agent.CodexTrustProblems(o)
	switch {
	case err != nil:
		return check{Name: "codex", Status: "fail", Detail: "cannot read Codex's trust: " + err.Error()}, true
	case len(problems) > 0:
		return check{Name: "codex", Status: "fail", Detail: strings.Join(problems, "; "),
			Fix: "start codex in the project and trust it and its hooks, or mnemo init --agent codex --trust-hooks"}, true
	}
	return check{Name: "codex", Status: "ok", Detail: "Codex trusts the project and mnemo's hooks (" + displayPath(f, o.CodexConfig()) + ")"}, true
}

// mergeCheck says whether a conflict in MEMORY.md is merged by mnemo's
// driver: the committed attribute, and the driver in this clone's config.
func mergeCheck(ctx context.Context, p *project.Project, o agent.Options) check {
	index := filepath.Join(o.VaultDir, vault.IndexFile)
	switch {
	case !p.HasMergeAttribute(index):
		return check{Name: "merge", Status: "warn", Detail: ".gitattributes does not hand MEMORY.md to mnemo's merge driver", Fix: "mnemo init, then commit .gitattributes"}
	case !p.DriverSet(ctx):
		return check{Name: "merge", Status: "warn", Detail: "this clone lacks the merge driver mnemo that .gitattributes names: git would leave a conflict in MEMORY.md to you",
			Fix: "mnemo init (it sets the driver in .git/config)"}
	}
	return check{Name: "merge", Status: "ok", Detail: "MEMORY.md merges through mnemo's driver"}
}

func binaryCheck(onPath string, reg agent.Registration) check {
	if onPath != "" {
		return check{Name: "binary", Status: "ok", Detail: onPath}
	}
	c := check{Name: "binary", Status: "warn", Detail: "mnemo is not on PATH: the project's hooks and the plugin run it from there",
		Fix: "go install ./cmd/mnemo, and put $(go env GOPATH)/bin on PATH"}
	if slices.Contains(reg.Programs, agent.PathProgram) || reg.Plugin {
		c.Status = "fail"
	}
	return c
}

// programProblem says why prog, run by a hook or the MCP server, is not
// the mnemo on PATH, or "" when it is.
func programProblem(prog, onPath string) string {
	if prog == agent.PathProgram {
		if onPath == "" {
			return "mnemo is not on PATH"
		}
		return ""
	}
	if fi, err := os.Stat(prog); err != nil || fi.Mode()&0o111 == 0 || fi.IsDir() {
		return "not an executable"
	}
	if onPath != "" && realPath(prog) != onPath {
		return "not the mnemo on PATH (" + onPath + ")"
	}
	return ""
}

// committedCheck finds machine paths in the files git shares: a mnemo
// entry that runs a path, or autoMemoryDirectory outside the local file.
func committedCheck(f *Factory, o agent.Options, reg agent.Registration) check {
	var found []string
	fix := "mnemo init (it writes mnemo from PATH into them)"
	for file, progs := range reg.Runs {
		for _, prog := range progs {
			if o.Committed(file) && prog != agent.PathProgram {
				found = append(found, displayPath(f, file)+" runs "+prog)
			}
		}
	}
	for file, dir := range reg.AutoMemory {
		if o.Committed(file) {
			found = append(found, displayPath(f, file)+" sets autoMemoryDirectory to "+dir)
			fix = "remove autoMemoryDirectory from " + displayPath(f, file) + ", then mnemo init (it sets it in settings.local.json)"
		}
	}
	if len(found) == 0 {
		return check{Name: "committed", Status: "ok", Detail: "no machine path in the files git shares"}
	}
	slices.Sort(found)
	return check{Name: "committed", Status: "fail", Detail: "a teammate's clone would use this machine's paths: " + strings.Join(found, "; "),
		Fix: fix}
}

// localSettingsCheck says whether settings.local.json, which holds this
// machine's paths, is kept out of git; ok is false when there is nothing to say.
func localSettingsCheck(ctx context.Context, f *Factory, p *project.Project, o agent.Options) (c check, ok bool) {
	local := o.LocalSettings()
	if _, err := os.Stat(local); err != nil || !p.InGit() {
		return check{}, false
	}
	ignored, err := p.Ignored(ctx, local)
	switch {
	case p.Tracked(ctx, local):
		return check{Name: "local", Status: "fail", Detail: displayPath(f, local) + " holds this machine's paths and is committed",
			Fix: "git rm --cached " + displayPath(f, local) + ", then commit; mnemo init keeps it ignored"}, true
	case err != nil:
		return check{Name: "local", Status: "warn", Detail: err.Error()}, true
	case !ignored:
		return check{Name: "local", Status: "fail", Detail: displayPath(f, local) + " holds this machine's paths and git does not ignore it",
			Fix: "mnemo init (it adds the file to .git/info/exclude)"}, true
	}
	return check{Name: "local", Status: "ok", Detail: displayPath(f, local) + " is ignored by git"}, true
}

// autoMemoryCheck says whether Claude Code writes its native memories into
// the shared vault.
func autoMemoryCheck(f *Factory, o agent.Options, reg agent.Registration) check {
	c := check{Name: "automemory", Status: "ok", Detail: "Claude Code writes its memories into " + displayPath(f, o.VaultDir)}
	got, ok := reg.AutoMemory[o.LocalSettings()]
	switch {
	case !ok:
		c.Status, c.Detail = "warn", "autoMemoryDirectory is not set: Claude Code writes its memories outside the vault"
	case got != o.VaultDir:
		c.Status, c.Detail = "fail", fmt.Sprintf("autoMemoryDirectory is %s, not the vault %s", got, o.VaultDir)
	default:
		return c
	}
	c.Fix = "mnemo init"
	return c
}

func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}
