package agent

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/tomlread"
)

// Codex reads Claude-Code-shaped hooks from .codex/hooks.json and MCP
// servers from config.toml.
var codexHooks = []hookSpec{
	{"SessionStart", "startup|resume|clear", "session-start", 5},
	{"UserPromptSubmit", "", "user-prompt-submit", 3},
	{"PreCompact", "", "pre-compact", 5},
	{"SessionEnd", "", "session-end", 3},
}

// Gemini CLI's events, mapped onto mnemo's hooks; its timeouts are in
// milliseconds. SessionStart has no matcher: Gemini compares a matcher of
// an event that is not a tool's to the source with ===, so a pattern
// matches nothing. PreCompress is not registered: Gemini 0.61 fires it
// before every model call, which would queue a capture job per call.
var geminiHooks = []hookSpec{
	{"SessionStart", "", "session-start", 5000},
	{"BeforeAgent", "", "user-prompt-submit", 3000},
	{"SessionEnd", "", "session-end", 3000},
}

// Cursor's camelCase events.
var cursorHooks = []hookSpec{
	{"sessionStart", "", "session-start", 0},
	{"beforeSubmitPrompt", "", "user-prompt-submit", 0},
	{"preCompact", "", "pre-compact", 0},
	{"sessionEnd", "", "session-end", 0},
}

// dotDir returns the agent's folder: in the project, or in the home folder
// for the user scope.
func (o Options) dotDir(name string) string {
	if o.Scope == "user" {
		return filepath.Join(o.Home, name)
	}
	return filepath.Join(o.Root, name)
}

func codex(o Options, add bool) ([]Change, error) {
	var changes []Change
	if !add { // first: the trust is keyed by the hooks' places in hooks.json
		c, err := untrustCodex(o)
		if err != nil {
			return nil, err
		}
		changes = append(changes, c)
	}
	dir := o.codexDir()
	config, hooks := filepath.Join(dir, "config.toml"), filepath.Join(dir, "hooks.json")
	c1, err := o.editFile(config, func(old []byte) ([]byte, error) {
		return setTOMLServer(old, o.program(config), add), nil
	})
	if err != nil {
		return changes, err
	}
	c2, err := o.editJSONFile(hooks, func(s *object) error {
		return setHooks(s, codexHooks, o.program(hooks), []string{"--agent", "codex"}, add)
	})
	return append(changes, c1, c2), err
}

func gemini(o Options, add bool) ([]Change, error) {
	settings := filepath.Join(o.dotDir(".gemini"), "settings.json")
	c, err := o.editJSONFile(settings, func(s *object) error {
		if err := setServer(s, stdioServer(o.program(settings), false), add); err != nil {
			return err
		}
		return setHooks(s, geminiHooks, o.program(settings), []string{"--agent", "gemini"}, add)
	})
	return []Change{c}, err
}

func cursor(o Options, add bool) ([]Change, error) {
	dir := o.dotDir(".cursor")
	mcp, hooks := filepath.Join(dir, "mcp.json"), filepath.Join(dir, "hooks.json")
	c1, err := o.editJSONFile(mcp, func(s *object) error {
		return setServer(s, stdioServer(o.program(mcp), false), add)
	})
	if err != nil {
		return nil, err
	}
	c2, err := o.editJSONFile(hooks, func(s *object) error {
		return setFlatHooks(s, cursorHooks, o.program(hooks), []string{"--agent", "cursor"}, add)
	})
	return []Change{c1, c2}, err
}

func setFlatHooks(settings *object, specs []hookSpec, binary string, extra []string, add bool) error {
	hooks, err := settings.obj("hooks")
	if err != nil {
		return err
	}
	for _, event := range append([]string(nil), hooks.keys...) {
		list, ok := hooks.vals[event].([]any)
		if !ok {
			continue
		}
		var rest []any
		for _, h := range list {
			if !isMnemoHook(h) {
				rest = append(rest, h)
			}
		}
		if len(rest) == 0 {
			hooks.del(event)
		} else {
			hooks.vals[event] = rest
		}
	}
	if add {
		if _, ok := settings.vals["version"]; !ok {
			settings.set("version", 1)
		}
		for _, s := range specs {
			h := newObject()
			h.set("command", strings.Join(append([]string{shellQuote(binary), "hook", s.command}, extra...), " "))
			list, _ := hooks.vals[s.event].([]any)
			hooks.set(s.event, append(list, h))
		}
	}
	if len(hooks.keys) == 0 {
		settings.del("hooks")
		if v, ok := settings.vals["version"]; ok && len(settings.keys) == 1 && isOne(v) {
			settings.del("version") // only mnemo's hooks were here
		}
	}
	return nil
}

// setTOMLServer removes the [mcp_servers.mnemo] table (and its subtables)
// from a TOML text and, with add, appends it again.
func setTOMLServer(old []byte, binary string, add bool) []byte {
	drop := func(path []string) bool { return len(path) >= 2 && path[0] == "mcp_servers" && path[1] == ServerName }
	text := ""
	if add {
		text = "[mcp_servers." + ServerName + "]\ncommand = " + tomlread.Quote(binary) + "\nargs = [\"mcp\"]\n"
	}
	return setTOMLTables(old, drop, text)
}

// setTOMLTables removes from a TOML text the tables whose header's key
// path drop reports (in any spelling TOML allows: see [tomlread.Header]), and
// appends add after a blank line. The rest of the text is kept byte for
// byte: TOML tables end where the next table header starts. nil when
// nothing is left.
func setTOMLTables(old []byte, drop func(path []string) bool, add string) []byte {
	var out []string
	skipping, dropped := false, false
	for line := range strings.Lines(string(old)) {
		if path, ok := tomlread.Header(line); ok {
			skipping = drop(path)
			dropped = dropped || skipping
		}
		if !skipping {
			out = append(out, line)
		}
	}
	if !dropped && add == "" {
		return old // nothing to do: the text stays as it is, to the last newline
	}
	text := strings.Join(out, "")
	if add != "" {
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		if text != "" && !strings.HasSuffix(text, "\n\n") {
			text += "\n"
		}
		text += add
	} else {
		text = strings.TrimRight(text, "\n")
		if text != "" {
			text += "\n"
		}
	}
	if text == "" {
		return nil
	}
	return []byte(text)
}

func isOne(v any) bool {
	switch n := v.(type) {
	case int:
		return n == 1
	case json.Number:
		return n.String() == "1"
	}
	return false
}
