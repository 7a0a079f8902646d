package envtrust

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/mnemo-dev/mnemo/internal/lazyregexp"
	"github.com/mnemo-dev/mnemo/internal/tomlread"
)

// A setting is a variable a file sets.
type setting struct {
	key, value string
	expands    bool // the agent replaces $VAR and ${VAR} in the value: the environment may hold another one
}

// A source is a kind of file an agent reads variables from.
type source struct {
	path   string   // relative to the folder the agent reads it in, slash-separated
	agents []string // the agents whose hooks get what it sets
	shell  []string // the agents whose shell tool gets what it sets, besides those
	mcp    bool     // it sets only the environment of MCP servers, not of hooks
	read   func(data []byte) []setting
}

// Agents, as mnemo's --agent names them.
const (
	claudeCode = "claude-code"
	codex      = "codex"
	gemini     = "gemini"
	cursor     = "cursor"
)

// projectSources are the files of a project that set variables: in the
// folder the agent runs in and in each folder above it up to the
// repository's root.
var projectSources = []source{
	{path: ".claude/settings.json", agents: []string{claudeCode}, read: readClaudeSettings},
	{path: ".claude/settings.local.json", agents: []string{claudeCode}, read: readClaudeSettings},
	{path: ".mcp.json", mcp: true, read: readMCPServers},
	// Codex reads a trusted project's .codex/config.toml (where mnemo init
	// registers the MCP server): its servers' env, and the variables its
	// shell_environment_policy sets for the commands the shell tool runs.
	// Codex's hooks get neither (checked with Codex 0.171.0).
	{path: ".codex/config.toml", mcp: true, shell: []string{codex}, read: readCodexConfig},
	{path: ".cursor/mcp.json", mcp: true, read: readMCPServers},
	{path: ".gemini/settings.json", agents: []string{gemini}, read: readGeminiSettings},
	{path: ".gemini/.env", agents: []string{gemini}, read: readDotenv},
	{path: ".env", agents: []string{gemini}, read: readDotenv},
}

// userSources are the user's own files that set variables, relative to
// the home folder or absolute: what they set is the user's choice.
var userSources = []source{
	{path: ".gemini/settings.json", read: readGeminiSettings},
	{path: ".gemini/.env", read: readDotenv},
	{path: ".env", read: readDotenv},
	{path: "/etc/claude-code/managed-settings.json", read: readClaudeSettings},
	{path: "/Library/Application Support/ClaudeCode/managed-settings.json", read: readClaudeSettings},
	{path: "/etc/gemini-cli/settings.json", read: readGeminiSettings},
	{path: "/etc/codex/config.toml", read: readCodexConfig},
}

// applies reports whether s sets the environment of agent's hooks, or
// with shell, of the commands agent's shell tool runs; with agent "" (not
// known: an MCP server, which every agent starts) every source applies,
// and for Cursor, whose hooks' environment is not documented, every
// source but the MCP servers'.
func (s source) applies(agent string, shell bool) bool {
	switch {
	case agent == "":
		return true
	case shell && slices.Contains(s.shell, agent):
		return true
	case s.mcp:
		return false
	case slices.Contains(s.agents, agent):
		return true
	}
	return agent == cursor // not verified: every file, in doubt
}

// readClaudeSettings reads the "env" of a Claude Code settings file,
// whose values Claude Code takes as they are.
func readClaudeSettings(data []byte) []setting {
	root, ok := parseJSON(data).(map[string]any)
	if !ok {
		return unparsed(data)
	}
	return envOf(root["env"], false, nil)
}

// readMCPServers reads the "env" of every server of an .mcp.json, whose
// values Claude Code and Cursor expand.
func readMCPServers(data []byte) []setting {
	root, ok := parseJSON(data).(map[string]any)
	if !ok {
		return unparsed(data)
	}
	return serversEnv(root["mcpServers"], nil)
}

// readGeminiSettings reads the "env" of every hook and MCP server of a
// Gemini CLI settings file, whose values Gemini CLI expands.
func readGeminiSettings(data []byte) []setting {
	root, ok := parseJSON(data).(map[string]any)
	if !ok {
		return unparsed(data)
	}
	out := serversEnv(root["mcpServers"], nil)
	events, _ := root["hooks"].(map[string]any)
	for _, groups := range events {
		gs, _ := groups.([]any)
		for _, g := range gs {
			group, _ := g.(map[string]any)
			hs, _ := group["hooks"].([]any)
			for _, h := range hs {
				if hook, ok := h.(map[string]any); ok {
					out = envOf(hook["env"], true, out)
				}
			}
		}
	}
	return out
}

func serversEnv(v any, out []setting) []setting {
	servers, _ := v.(map[string]any)
	for _, s := range servers {
		if server, ok := s.(map[string]any); ok {
			out = envOf(server["env"], true, out)
		}
	}
	return out
}

// envOf appends the variables of an "env" object to out, with the values
// a JavaScript agent puts in its environment: strings as they are,
// numbers and booleans as their text.
func envOf(v any, expands bool, out []setting) []setting {
	env, _ := v.(map[string]any)
	for k, x := range env {
		var s string
		switch x := x.(type) {
		case string:
			s = x
		case json.Number:
			s = x.String()
		case bool:
			s = map[bool]string{true: "true", false: "false"}[x]
		default:
			continue
		}
		out = append(out, setting{key: k, value: s, expands: expands && strings.Contains(s, "$")})
	}
	return out
}

// readCodexConfig reads a Codex config.toml: the "env" of every MCP
// server ([mcp_servers.NAME] env, or its [mcp_servers.NAME.env] table) and
// what shell_environment_policy "set"s, at any depth (a profile's too),
// whose values Codex takes as they are. What follows a point the reader
// cannot read is taken as [unparsedTOML] takes it.
func readCodexConfig(data []byte) []setting {
	vals, err := tomlread.Strings(string(data))
	var out []setting
	for _, v := range vals {
		p := v.Path
		n := len(p)
		if n >= 4 && p[n-4] == "mcp_servers" && p[n-2] == "env" || n >= 3 && p[n-3] == "shell_environment_policy" && p[n-2] == "set" {
			out = append(out, setting{key: p[n-1], value: v.Value})
		}
	}
	if err != nil {
		out = append(out, unparsedTOML(data)...)
	}
	return out
}

// unparsedTOML is what a TOML file that does not parse may set: every
// KEY = in it, with no value, which [Options.matching] finds by the
// environment's value in the text.
func unparsedTOML(data []byte) []setting {
	var out []setting
	for _, m := range tomlKey.FindAllStringSubmatch(string(data), -1) {
		out = append(out, setting{key: m[1]})
	}
	return out
}

var tomlKey = lazyregexp.New(`["']?([A-Za-z_][A-Za-z0-9_.-]*)["']?\s*=`)

// unparsed is what a JSON file that does not parse may set, for an agent
// more lenient than [parseJSON]: every "KEY": in it, with no value, which
// [Options.matching] finds by the environment's value in the text.
func unparsed(data []byte) []setting {
	var out []setting
	for _, m := range quotedKey.FindAllStringSubmatch(string(data), -1) {
		out = append(out, setting{key: m[1]})
	}
	return out
}

var quotedKey = lazyregexp.New(`"([A-Za-z_][A-Za-z0-9_.-]*)"\s*:`)

// parseJSON decodes a JSON document in which // and /* */ comments are
// allowed, as Gemini CLI reads its settings; nil when it is not JSON.
func parseJSON(data []byte) any {
	dec := json.NewDecoder(bytes.NewReader(stripComments(data)))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	return v
}

// stripComments blanks the comments of a JSON document, outside strings.
func stripComments(data []byte) []byte {
	out := bytes.Clone(data)
	inString := false
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for ; i < len(out) && out[i] != '\n'; i++ {
				out[i] = ' '
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			end := bytes.Index(out[i+2:], []byte("*/"))
			stop := len(out)
			if end >= 0 {
				stop = i + 2 + end + 2
			}
			for ; i < stop; i++ {
				if out[i] != '\n' {
					out[i] = ' '
				}
			}
			i--
		}
	}
	return out
}

// readDotenv reads a .env file as the dotenv package of npm does, which
// Gemini CLI uses: KEY=VALUE lines (or KEY: VALUE), "export " allowed
// before the key, # comments; a value in single, double or back quotes
// may span lines, and in double quotes \n and \r are a newline and a
// return; an unquoted value ends at a # and is trimmed.
func readDotenv(data []byte) []setting {
	var out []setting
	s := strings.ReplaceAll(string(data), "\r\n", "\n")
	for s != "" {
		var line string
		line, s, _ = strings.Cut(s, "\n")
		line = strings.TrimLeft(line, " \t")
		if rest, ok := strings.CutPrefix(line, "export"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			line = strings.TrimLeft(rest, " \t")
		}
		i := strings.IndexFunc(line, func(r rune) bool { return !isKeyRune(r) })
		if i <= 0 {
			continue
		}
		key, rest := line[:i], strings.TrimLeft(line[i:], " \t")
		if r, ok := strings.CutPrefix(rest, "="); ok {
			rest = r
		} else if r, ok := strings.CutPrefix(rest, ":"); ok {
			rest = r
		} else {
			continue
		}
		rest = strings.TrimLeft(rest, " \t")
		if rest != "" && strings.ContainsRune("'\"`", rune(rest[0])) {
			q := rest[:1]
			body := rest[1:] + "\n" + s
			if end := closingQuote(body, q[0]); end >= 0 {
				value := body[:end]
				s = body[end+1:]
				if _, after, ok := strings.Cut(s, "\n"); ok {
					s = after
				} else {
					s = ""
				}
				if q == `"` {
					value = strings.NewReplacer(`\n`, "\n", `\r`, "\r").Replace(value)
				}
				out = append(out, setting{key: key, value: value})
				continue
			}
		}
		value, _, _ := strings.Cut(rest, "#")
		out = append(out, setting{key: key, value: strings.TrimSpace(value)})
	}
	return out
}

// closingQuote returns the index of the quote q that closes body (a
// backslash escapes it), or -1.
func closingQuote(body string, q byte) int {
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '\\':
			i++
		case q:
			return i
		}
	}
	return -1
}

func isKeyRune(r rune) bool {
	return r == '_' || r == '.' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}
