package agent

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// Options say where and how to wire mnemo.
type Options struct {
	Binary     string // absolute path of the mnemo executable; written only where nothing is committed
	Root       string // the project root
	VaultDir   string // the project vault; autoMemoryDirectory points here when it is the shared one
	Shared     bool   // whether VaultDir is the committed .memory/ (not Claude Code's own folder)
	Scope      string // project, local or user
	Home       string // the user's home folder
	ClaudeHome string // $CLAUDE_CONFIG_DIR or ~/.claude
	CodexHome  string // $CODEX_HOME or ~/.codex: Codex's config.toml (trust), user-scope hooks.json, sessions
	BackupDir  string // where a file's previous text goes (the state folder's backups/); none when empty
	// FoldersFile lists the folders Install created (in the state folder),
	// so that Uninstall removes one it empties; none when empty.
	FoldersFile string
	Now         func() time.Time
}

// PathProgram is how a committed file runs mnemo: by name, from PATH, so
// the file holds nothing of the machine it was written on.
const PathProgram = "mnemo"

// Committed reports whether path is a file of the project that git shares:
// anything under the root except Claude Code's settings.local.json, which
// init keeps ignored, and the user's own files (user scope, Claude Code's
// app state and config folder, Codex's), wherever the home folder is.
func (o Options) Committed(path string) bool {
	if o.Scope == "user" || path == o.LocalSettings() || path == o.claudeJSON() || within(o.ClaudeHome, path) || within(o.CodexHome, path) {
		return false
	}
	return within(o.Root, path)
}

func within(dir, path string) bool {
	r, err := filepath.Rel(dir, path)
	return err == nil && filepath.IsLocal(r)
}

// LocalSettings is Claude Code's per-clone settings file, never committed.
func (o Options) LocalSettings() string {
	return filepath.Join(o.Root, ".claude", "settings.local.json")
}

// program is the mnemo command written into path: from PATH in a committed
// file, the absolute binary elsewhere.
func (o Options) program(path string) string {
	if o.Committed(path) {
		return PathProgram
	}
	return o.Binary
}

// ServerName is the name mnemo's MCP server is registered under, so Claude
// Code shows its tools as mcp__mnemo__recall and so on.
const ServerName = "mnemo"

// A hookSpec is one hook mnemo registers: the agent's event, its matcher,
// the mnemo hook command and a timeout in the agent's unit.
type hookSpec struct {
	event, matcher, command string
	timeout                 int
}

// claudeHooks are the events mnemo handles in Claude Code. Stop is not
// registered: mnemo has nothing to do there, and a process per turn is a cost.
var claudeHooks = []hookSpec{
	{"SessionStart", "startup|resume|clear|compact", "session-start", 5},
	{"UserPromptSubmit", "", "user-prompt-submit", 3},
	{"PreCompact", "", "pre-compact", 5},
	{"SessionEnd", "", "session-end", 3},
}

// shellQuote quotes a path for the shell form of a hook command.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// isMnemoHook reports whether a hook handler is one mnemo installed, by any
// path: its command runs a program named mnemo with "hook".
func isMnemoHook(h any) bool {
	o, ok := h.(*object)
	if !ok {
		return false
	}
	cmd, _ := o.vals["command"].(string)
	return isMnemoCommand(cmd)
}

// isMnemoCommand reports whether a hook's command runs 'mnemo hook'.
func isMnemoCommand(cmd string) bool {
	prog, rest := firstWord(cmd)
	return filepath.Base(prog) == "mnemo" && strings.HasPrefix(rest, " hook ")
}

// firstWord splits a shell command after its first word, undoing the
// quoting shellQuote adds.
func firstWord(cmd string) (word, rest string) {
	var b strings.Builder
	for i := 0; i < len(cmd); i++ {
		switch c := cmd[i]; {
		case c == '\'':
			j := strings.IndexByte(cmd[i+1:], '\'')
			if j < 0 {
				return b.String() + cmd[i+1:], ""
			}
			b.WriteString(cmd[i+1 : i+1+j])
			i += j + 1
		case c == '\\' && i+1 < len(cmd):
			b.WriteByte(cmd[i+1])
			i++
		case c == ' ' || c == '\t':
			return b.String(), cmd[i:]
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), ""
}

// setHooks makes mnemo's handlers in a settings "hooks" object exactly
// specs (none when add is false): a handler already there is updated in
// place, a missing one is appended in a group of its own, a stale one is
// removed, and groups and events left empty go too. Everything else stays.
func setHooks(settings *object, specs []hookSpec, binary string, extra []string, add bool) error {
	hooks, err := settings.obj("hooks")
	if err != nil {
		return err
	}
	want := make(map[string]hookSpec)
	if add {
		for _, s := range specs {
			want[s.event] = s
		}
	}
	placed := make(map[string]bool)
	for _, event := range append([]string(nil), hooks.keys...) {
		groups, ok := hooks.vals[event].([]any)
		if !ok {
			continue
		}
		var kept []any
		for _, g := range groups {
			if keepGroup(g, event, want, placed, binary, extra) {
				kept = append(kept, g)
			}
		}
		if len(kept) == 0 {
			hooks.del(event)
		} else {
			hooks.vals[event] = kept
		}
	}
	for _, s := range specs {
		if add && !placed[s.event] {
			g := newObject()
			if s.matcher != "" {
				g.set("matcher", s.matcher)
			}
			g.set("hooks", []any{handler(s, binary, extra)})
			groups, _ := hooks.vals[s.event].([]any)
			hooks.set(s.event, append(groups, g))
		}
	}
	if len(hooks.keys) == 0 {
		settings.del("hooks")
	}
	return nil
}

// keepGroup updates or drops mnemo's handlers in one matcher group and
// reports whether the group still holds any handler.
func keepGroup(g any, event string, want map[string]hookSpec, placed map[string]bool, binary string, extra []string) bool {
	gobj, ok := g.(*object)
	if !ok {
		return true
	}
	list, _ := gobj.vals["hooks"].([]any)
	var rest []any
	changed := false
	for _, h := range list {
		if !isMnemoHook(h) {
			rest = append(rest, h)
			continue
		}
		changed = true
		if s, ok := want[event]; ok && !placed[event] {
			placed[event] = true
			rest = append(rest, handler(s, binary, extra))
			if len(list) == 1 { // a group of mnemo's own: its matcher is mnemo's
				if s.matcher != "" {
					gobj.set("matcher", s.matcher)
				} else {
					gobj.del("matcher")
				}
			}
		}
	}
	if changed {
		gobj.set("hooks", rest)
	}
	return len(rest) > 0 || !changed
}

func handler(s hookSpec, binary string, extra []string) *object {
	h := newObject()
	h.set("type", "command")
	h.set("command", strings.Join(append([]string{shellQuote(binary), "hook", s.command}, extra...), " "))
	h.set("timeout", s.timeout)
	return h
}

// setServer registers (or with add unset, removes) mnemo's MCP server in an
// "mcpServers" object under parent.
func setServer(parent *object, server *object, add bool) error {
	servers, err := parent.obj("mcpServers")
	if err != nil {
		return err
	}
	servers.del(ServerName)
	if add {
		servers.set(ServerName, server)
	}
	if len(servers.keys) == 0 {
		parent.del("mcpServers")
	}
	return nil
}

func stdioServer(binary string, withType bool) *object {
	s := newObject()
	if withType {
		s.set("type", "stdio")
	}
	s.set("command", binary)
	s.set("args", []any{"mcp"})
	return s
}

// claudeFiles returns the settings file for hooks and where the MCP server goes.
func (o Options) claudeFiles() (settings, mcp string, mcpPath []string, err error) {
	switch o.Scope {
	case "", "project":
		return filepath.Join(o.Root, ".claude", "settings.json"), filepath.Join(o.Root, ".mcp.json"), nil, nil
	case "local":
		return o.LocalSettings(), o.claudeJSON(), []string{"projects", o.Root}, nil
	case "user":
		return filepath.Join(o.ClaudeHome, "settings.json"), o.claudeJSON(), nil, nil
	}
	return "", "", nil, fmt.Errorf("scope %q is not one of project, local, user", o.Scope)
}

// claudeJSON is Claude Code's app-state file, where local- and user-scope
// MCP servers live: inside CLAUDE_CONFIG_DIR when that is set, else ~/.claude.json.
func (o Options) claudeJSON() string {
	if o.ClaudeHome != filepath.Join(o.Home, ".claude") {
		return filepath.Join(o.ClaudeHome, ".claude.json")
	}
	return filepath.Join(o.Home, ".claude.json")
}

// claudeCode wires hooks, the MCP server and autoMemoryDirectory.
func claudeCode(o Options, add bool) ([]Change, error) {
	settings, mcp, mcpPath, err := o.claudeFiles()
	if err != nil {
		return nil, err
	}
	var changes []Change
	c, err := o.editJSONFile(settings, func(s *object) error {
		return setHooks(s, claudeHooks, o.program(settings), nil, add)
	})
	if err != nil {
		return changes, err
	}
	changes = append(changes, c)
	c, err = o.editJSONFile(mcp, func(root *object) error {
		parent := root
		for _, k := range mcpPath {
			if parent, err = parent.obj(k); err != nil {
				return err
			}
		}
		err := setServer(parent, stdioServer(o.program(mcp), true), add)
		pruneEmpty(root, mcpPath)
		return err
	})
	if err != nil {
		return changes, err
	}
	changes = append(changes, c)
	if !o.Shared {
		return changes, nil // Claude Code's own folder: it loads it natively already
	}
	c, err = o.editJSONFile(o.LocalSettings(), func(s *object) error {
		if !add {
			if v, _ := s.vals["autoMemoryDirectory"].(string); v == o.VaultDir {
				s.del("autoMemoryDirectory")
			}
			return nil
		}
		s.set("autoMemoryDirectory", o.VaultDir)
		return nil
	})
	return append(changes, c), err
}

// pruneEmpty removes the objects along path that were left empty.
func pruneEmpty(root *object, path []string) {
	if len(path) == 0 {
		return
	}
	child, ok := root.vals[path[0]].(*object)
	if !ok {
		return
	}
	pruneEmpty(child, path[1:])
	if len(child.keys) == 0 {
		root.del(path[0])
	}
}
