package agent

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/mnemo-dev/mnemo/internal/tomlread"
)

// Codex runs a project's .codex/ folder (its hooks, its MCP servers) only
// once the project is trusted, and each hook only while the user's
// config.toml holds the hash of that hook as it is now:
//
//	[projects."<root>"]
//	trust_level = "trusted"
//
//	[hooks.state."<abs path of hooks.json>:<event>:<group>:<handler>"]
//	trusted_hash = "sha256:<hex>"
//
// Untrusted hooks do not run in 'codex exec', and nothing says so. The
// key's event is snake_case; the hash is over the compact, key-sorted JSON
// of the handler's identity (see codexHookHash). Measured with Codex CLI
// 0.171.0.

// A CodexHook is one command handler of a hooks.json, as Codex names it
// for trust.
type CodexHook struct {
	Key   string // "<abs path of hooks.json>:<event>:<group>:<handler>"
	Hash  string // "sha256:<hex>"
	Mnemo bool   // one of mnemo's hooks
	// Program is the mnemo a hook of mnemo's runs: "mnemo" (from PATH) or
	// a path.
	Program string
}

// codexHooksFile is the part of hooks.json a hook's trust covers.
type codexHooksFile struct {
	Hooks map[string][]struct {
		Matcher *string `json:"matcher"`
		Hooks   []struct {
			Type    string `json:"type"`
			Command string `json:"command"`
			Timeout *int   `json:"timeout"`
			Async   bool   `json:"async"`
		} `json:"hooks"`
	} `json:"hooks"`
}

// CodexHooks returns the trust key and hash of every command handler in a
// hooks.json, by key; none when the file does not exist.
func CodexHooks(path string) ([]CodexHook, error) {
	data, _, err := readFile(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, err
	}
	var f codexHooksFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var out []CodexHook
	for event, groups := range f.Hooks {
		for gi, g := range groups {
			for hi, h := range g.Hooks {
				if h.Type != "command" {
					continue
				}
				timeout := 600
				if h.Timeout != nil {
					timeout = *h.Timeout
				}
				c := CodexHook{
					Key:   fmt.Sprintf("%s:%s:%d:%d", path, snakeCase(event), gi, hi),
					Hash:  codexHookHash(event, g.Matcher, h.Command, timeout, h.Async),
					Mnemo: isMnemoCommand(h.Command),
				}
				if c.Mnemo {
					c.Program, _ = firstWord(h.Command)
				}
				out = append(out, c)
			}
		}
	}
	slices.SortFunc(out, func(a, b CodexHook) int { return strings.Compare(a.Key, b.Key) })
	return out, nil
}

// codexHookHash is the hash Codex trusts a hook handler by: sha256 of the
// compact, key-sorted JSON {"event_name", "matcher"?, "hooks": [{"type",
// "command", "timeout", "async"}]}, the timeout clamped to 1..3 for
// SessionEnd (as Codex clamps it).
func codexHookHash(event string, matcher *string, command string, timeout int, async bool) string {
	if event == "SessionEnd" {
		timeout = max(1, min(3, timeout))
	}
	id := map[string]any{
		"event_name": snakeCase(event),
		"hooks":      []any{map[string]any{"type": "command", "command": command, "timeout": timeout, "async": async}},
	}
	if matcher != nil {
		id["matcher"] = *matcher
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(id) // maps encode key-sorted
	sum := sha256.Sum256(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// snakeCase turns an event name as hooks.json spells it (SessionStart)
// into Codex's (session_start).
func snakeCase(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// CodexConfig is the user's Codex config.toml, where trust is kept.
func (o Options) CodexConfig() string { return filepath.Join(o.CodexHome, "config.toml") }

// CodexHooksFile is the hooks.json mnemo's Codex hooks are in.
func (o Options) CodexHooksFile() string { return filepath.Join(o.codexDir(), "hooks.json") }

// codexDir is the folder of the Codex files mnemo writes: the project's
// .codex/, or for the user scope Codex's own folder.
func (o Options) codexDir() string {
	if o.Scope == "user" {
		return o.CodexHome
	}
	return filepath.Join(o.Root, ".codex")
}

// TrustCodex writes to the user's config.toml what Codex needs to run
// mnemo's hooks: the project trusted (project scope), and each of mnemo's
// hooks in hooks.json trusted as it is now. Other tables stay as they were.
func TrustCodex(o Options) (Change, error) {
	hooks, err := CodexHooks(o.CodexHooksFile())
	if err != nil {
		return Change{}, fmt.Errorf("agent: codex trust: %w", err)
	}
	var paths []string
	var add strings.Builder
	if o.Scope != "user" {
		paths = append(paths, tomlPath("projects", o.Root))
		add.WriteString("[projects." + tomlread.Quote(o.Root) + "]\ntrust_level = \"trusted\"\n")
	}
	for _, h := range hooks {
		if !h.Mnemo {
			continue
		}
		paths = append(paths, h.trustPath())
		fmt.Fprintf(&add, "\n%s\ntrusted_hash = %q\n", h.trustHeader(), h.Hash)
	}
	c, err := o.editFile(o.CodexConfig(), func(old []byte) ([]byte, error) {
		return setTOMLTables(old, inPaths(paths), strings.TrimPrefix(add.String(), "\n")), nil
	})
	if err != nil {
		return c, fmt.Errorf("agent: codex trust: %w", err)
	}
	return c, nil
}

// trustHeader is the header of the config.toml table that trusts h.
func (h CodexHook) trustHeader() string { return "[hooks.state." + tomlread.Quote(h.Key) + "]" }

// trustPath is the key path of that table, as [tomlPath] spells it.
func (h CodexHook) trustPath() string { return tomlPath("hooks", "state", h.Key) }

// inPaths reports a key path that is one of paths ([tomlPath]'s spelling).
func inPaths(paths []string) func([]string) bool {
	return func(path []string) bool { return slices.Contains(paths, tomlPath(path...)) }
}

// untrustCodex removes from the user's config.toml the tables that trust
// mnemo's hooks in hooks.json as it is now (what [TrustCodex] wrote), and
// nothing else: the project's trust stays, which the user may rely on for
// more than mnemo. It is called before the hooks are removed, while their
// keys can still be known.
func untrustCodex(o Options) (Change, error) {
	hooks, err := CodexHooks(o.CodexHooksFile())
	if err != nil {
		return Change{}, err
	}
	var paths []string
	for _, h := range hooks {
		if h.Mnemo {
			paths = append(paths, h.trustPath())
		}
	}
	if len(paths) == 0 {
		return Change{Path: o.CodexConfig(), Action: "unchanged"}, nil
	}
	return o.editFile(o.CodexConfig(), func(old []byte) ([]byte, error) {
		return setTOMLTables(old, inPaths(paths), ""), nil
	})
}

// CodexTrustProblems reports what keeps Codex from running mnemo's hooks:
// an untrusted project, hooks without a trust entry or with a stale hash
// (a changed command, binary path or timeout untrusts a hook). It reads
// config.toml line by line, as mnemo writes it and Codex does.
func CodexTrustProblems(o Options) ([]string, error) {
	hooks, err := CodexHooks(o.CodexHooksFile())
	if err != nil {
		return nil, err
	}
	data, _, err := readFile(o.CodexConfig())
	if err != nil && !os.IsNotExist(err) {
		return nil, err
	}
	tables := tomlTables(data)
	var out []string
	if o.Scope != "user" && tables[tomlPath("projects", o.Root)]["trust_level"] != `"trusted"` {
		out = append(out, fmt.Sprintf("the project %s is not trusted in %s: Codex ignores its .codex/ folder", o.Root, o.CodexConfig()))
	}
	for _, h := range hooks {
		if !h.Mnemo {
			continue
		}
		switch got := tables[h.trustPath()]["trusted_hash"]; got {
		case strconv.Quote(h.Hash):
		case "":
			out = append(out, fmt.Sprintf("the hook %s is not trusted: Codex does not run it", h.Key))
		default:
			out = append(out, fmt.Sprintf("the hook %s changed since it was trusted: Codex does not run it", h.Key))
		}
	}
	return out, nil
}

// tomlTables reads the "key = value" lines of each table of a TOML text,
// by the table's key path ([tomlPath]), values as written. Enough for the
// tables mnemo checks; not a TOML parser.
func tomlTables(data []byte) map[string]map[string]string {
	out := map[string]map[string]string{}
	cur := ""
	for line := range strings.Lines(string(data)) {
		t := strings.TrimSpace(line)
		if path, ok := tomlread.Header(line); ok {
			cur = tomlPath(path...)
			if strings.HasPrefix(t, "[[") {
				cur = "[[" + cur + "]]" // an array of tables: none mnemo checks
			}
			continue
		}
		k, v, ok := strings.Cut(t, "=")
		if !ok || strings.HasPrefix(t, "#") {
			continue
		}
		if out[cur] == nil {
			out[cur] = map[string]string{}
		}
		out[cur][strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return out
}
