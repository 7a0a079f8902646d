package agent

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		os.WriteFile(path, got, 0o644)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs (go test -update if right):\n%s", name, got)
	}
}

func options(t *testing.T, scope string) Options {
	root, home := t.TempDir(), t.TempDir()
	return Options{
		Binary: "/opt/my tools/mnemo", Root: root, VaultDir: filepath.Join(root, ".memory"), Shared: true,
		Scope: scope, Home: home, ClaudeHome: filepath.Join(home, ".claude"),
		CodexHome: filepath.Join(home, ".codex"), BackupDir: filepath.Join(home, ".mnemo", "state", "backups"),
	}
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func actions(cs []Change) string {
	var out []string
	for _, c := range cs {
		out = append(out, filepath.Base(c.Path)+":"+c.Action)
	}
	return strings.Join(out, " ")
}

// TestClaudeCodeRoundTrip merges into a settings.json that has other hooks
// and permissions, is idempotent, and uninstalls back to the same bytes.
func TestClaudeCodeRoundTrip(t *testing.T) {
	o := options(t, "project")
	orig := read(t, "testdata/settings.json")
	settings := filepath.Join(o.Root, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	os.WriteFile(settings, orig, 0o644)

	cs, err := Install("claude-code", o)
	if err != nil {
		t.Fatal(err)
	}
	if got := actions(cs); got != "settings.json:updated .mcp.json:created settings.local.json:created" {
		t.Errorf("Install = %s", got)
	}
	golden(t, "settings.installed.json", read(t, settings))
	golden(t, "mcp.installed.json", read(t, filepath.Join(o.Root, ".mcp.json")))
	local := string(read(t, filepath.Join(o.Root, ".claude", "settings.local.json")))
	if want := `"autoMemoryDirectory": "` + o.VaultDir + `"`; !strings.Contains(local, want) {
		t.Errorf("settings.local.json = %s, want %s", local, want)
	}
	if got := string(read(t, cs[0].Backup)); got != string(orig) {
		t.Errorf("the backup %s is not the original", cs[0].Backup)
	}
	if dir := filepath.Dir(cs[0].Backup); dir != o.BackupDir {
		t.Errorf("backup in %s, want %s", dir, o.BackupDir)
	}
	if _, err := os.Stat(settings + ".bak"); err == nil {
		t.Errorf("a .bak was left in the working tree")
	}

	cs, err = Install("claude-code", o)
	if err != nil {
		t.Fatal(err)
	}
	if got := actions(cs); got != "settings.json:unchanged .mcp.json:unchanged settings.local.json:unchanged" {
		t.Errorf("second Install = %s, want all unchanged", got)
	}

	// Committed files run mnemo from PATH: another machine's binary changes nothing.
	o2 := o
	o2.Binary = "/usr/local/bin/mnemo"
	cs, err = Install("claude-code", o2)
	if err != nil {
		t.Fatal(err)
	}
	if got := actions(cs); !strings.HasPrefix(got, "settings.json:unchanged .mcp.json:unchanged") {
		t.Errorf("Install from another binary = %s, want the committed files unchanged", got)
	}
	if s := string(read(t, settings)); strings.Contains(s, "/usr/") || strings.Contains(s, "my tools") || strings.Count(s, `"mnemo hook `) != 4 {
		t.Errorf("settings.json holds a path:\n%s", s)
	}

	cs, err = Uninstall("claude-code", o)
	if err != nil {
		t.Fatal(err)
	}
	if got := actions(cs); got != "settings.json:updated .mcp.json:removed settings.local.json:removed" {
		t.Errorf("Uninstall = %s", got)
	}
	if got := read(t, settings); string(got) != string(orig) {
		t.Errorf("Uninstall did not restore settings.json:\n%s", got)
	}
}

func TestClaudeCodeScopes(t *testing.T) {
	for _, scope := range []string{"local", "user"} {
		t.Run(scope, func(t *testing.T) {
			o := options(t, scope)
			appState := filepath.Join(o.Home, ".claude.json")
			orig := "{\n  \"numStartups\": 3,\n  \"projects\": {\n    \"/other\": {\n      \"allowedTools\": []\n    }\n  }\n}\n"
			os.WriteFile(appState, []byte(orig), 0o644)
			if _, err := Install("claude-code", o); err != nil {
				t.Fatal(err)
			}
			state := string(read(t, appState))
			want := `"mnemo": {`
			if !strings.Contains(state, want) || !strings.Contains(state, `"/other"`) {
				t.Errorf("~/.claude.json =\n%s", state)
			}
			if scope == "local" && !strings.Contains(state, `"`+o.Root+`": {`) {
				t.Errorf("local scope: no projects entry for the root:\n%s", state)
			}
			settings := filepath.Join(o.Root, ".claude", "settings.local.json")
			if scope == "user" {
				settings = filepath.Join(o.ClaudeHome, "settings.json")
			}
			if !strings.Contains(string(read(t, settings)), "hook session-start") {
				t.Errorf("%s has no hooks", settings)
			}
			if _, err := Uninstall("claude-code", o); err != nil {
				t.Fatal(err)
			}
			if got := string(read(t, appState)); got != orig {
				t.Errorf("Uninstall left ~/.claude.json =\n%s", got)
			}
		})
	}
}

func TestOtherAgentsRoundTrip(t *testing.T) {
	tests := []struct {
		agent string
		files map[string]string // path under the root → original content ("" = absent)
	}{
		{"codex", map[string]string{
			".codex/config.toml": "model = \"o3\"\n\n[mcp_servers.other]\ncommand = \"x\"\n",
			".codex/hooks.json":  "",
		}},
		{"gemini", map[string]string{".gemini/settings.json": "{\n  \"theme\": \"dark\"\n}\n"}},
		{"cursor", map[string]string{".cursor/mcp.json": "", ".cursor/hooks.json": "{\n  \"version\": 1,\n  \"hooks\": {\n    \"stop\": [\n      {\n        \"command\": \"./audit.sh\"\n      }\n    ]\n  }\n}\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.agent, func(t *testing.T) {
			o := options(t, "project")
			for f, content := range tt.files {
				if content != "" {
					p := filepath.Join(o.Root, f)
					os.MkdirAll(filepath.Dir(p), 0o755)
					os.WriteFile(p, []byte(content), 0o644)
				}
			}
			if _, err := Install(tt.agent, o); err != nil {
				t.Fatal(err)
			}
			for f := range tt.files {
				golden(t, tt.agent+"."+strings.ReplaceAll(filepath.Base(f), ".", "-")+".installed", read(t, filepath.Join(o.Root, f)))
			}
			cs, err := Install(tt.agent, o)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cs {
				if c.Action != "unchanged" {
					t.Errorf("second Install changed %s: %s", c.Path, c.Action)
				}
			}
			if _, err := Uninstall(tt.agent, o); err != nil {
				t.Fatal(err)
			}
			for f, content := range tt.files {
				got, err := os.ReadFile(filepath.Join(o.Root, f))
				if content == "" {
					if err == nil {
						t.Errorf("Uninstall left %s, which Install created:\n%s", f, got)
					}
					continue
				}
				if string(got) != content {
					t.Errorf("Uninstall left %s =\n%s\nwant\n%s", f, got, content)
				}
			}
		})
	}
}

func TestRefusesBrokenJSON(t *testing.T) {
	o := options(t, "project")
	settings := filepath.Join(o.Root, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o755)
	os.WriteFile(settings, []byte("{\"hooks\": "), 0o644)
	if _, err := Install("claude-code", o); err == nil || !strings.Contains(err.Error(), "settings.json: invalid JSON") {
		t.Errorf("Install over broken JSON = %v, want an error naming the file", err)
	}
	if got := string(read(t, settings)); got != "{\"hooks\": " {
		t.Errorf("the broken file was changed: %q", got)
	}
	os.WriteFile(settings, []byte(`{"hooks": []}`), 0o644)
	if _, err := Install("claude-code", o); err == nil || !strings.Contains(err.Error(), `"hooks" is not an object`) {
		t.Errorf("Install over hooks of the wrong type = %v", err)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	for _, in := range []string{
		"{}\n", "{\n  \"a\": [],\n  \"b\": {},\n  \"c\": null,\n  \"d\": 1e3,\n  \"e\": \"\\u003c\"\n}\n",
	} {
		o, err := parseJSON([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if got := string(formatJSON(o)); in != "{}\n" && got != strings.ReplaceAll(in, `\u003c`, "<") {
			t.Errorf("formatJSON(parseJSON(%q)) = %q", in, got)
		}
	}
}

func TestIsMnemoHook(t *testing.T) {
	tests := []struct {
		cmd  string
		want bool
	}{
		{"mnemo hook session-start", true},
		{"/usr/bin/mnemo hook stop", true},
		{"'/opt/my tools/mnemo' hook session-end --agent cursor", true},
		{`'/it'\''s/mnemo' hook x`, true},
		{"mnemo recall x", false},
		{"echo mnemo hook", false},
		{"/opt/mnemo-old hook x", false},
		{"", false},
	}
	for _, tt := range tests {
		h := newObject()
		h.set("command", tt.cmd)
		if got := isMnemoHook(h); got != tt.want {
			t.Errorf("isMnemoHook(%q) = %v, want %v", tt.cmd, got, tt.want)
		}
		if tt.want {
			if w, _ := firstWord(shellQuote("/a b/it's/mnemo") + " hook x"); w != "/a b/it's/mnemo" {
				t.Errorf("firstWord(shellQuote(...)) = %q", w)
			}
		}
	}
}

// TestUninstallRestoresUserText: init reformats a settings.json the user
// wrote their own way; uninstall gives back their bytes, and when they have
// changed something since, removes only mnemo's entries.
func TestUninstallRestoresUserText(t *testing.T) {
	tests := []struct {
		name, orig, later, want string // later: the user's edit after init ("" = none)
	}{
		{"tabs", "{\"model\":\t\"opus\",\n\t\"env\": {\"A\": \"1\"}}", "", "{\"model\":\t\"opus\",\n\t\"env\": {\"A\": \"1\"}}"},
		{"compact", `{"permissions":{"allow":["Read"]}}` + "\n", "", `{"permissions":{"allow":["Read"]}}` + "\n"},
		{"edited since", `{"model":"opus"}`, `"model": "sonnet"`, "{\n  \"model\": \"sonnet\"\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := options(t, "project")
			settings := filepath.Join(o.Root, ".claude", "settings.json")
			os.MkdirAll(filepath.Dir(settings), 0o755)
			os.WriteFile(settings, []byte(tt.orig), 0o644)
			if _, err := Install("claude-code", o); err != nil {
				t.Fatal(err)
			}
			if tt.later != "" {
				s := strings.Replace(string(read(t, settings)), `"model": "opus"`, tt.later, 1)
				os.WriteFile(settings, []byte(s), 0o644)
			}
			if _, err := Uninstall("claude-code", o); err != nil {
				t.Fatal(err)
			}
			if got := string(read(t, settings)); got != tt.want {
				t.Errorf("after uninstall settings.json = %q, want %q", got, tt.want)
			}
		})
	}
}

// TestCommittedFilesRunFromPath: in the project the agents' files run mnemo
// by name; only files outside git (local and user scope) name the binary.
func TestCommittedFilesRunFromPath(t *testing.T) {
	tests := []struct {
		agent, scope, file string
		absolute           bool
	}{
		{"claude-code", "project", ".claude/settings.json", false},
		{"claude-code", "project", ".mcp.json", false},
		{"claude-code", "local", ".claude/settings.local.json", true},
		{"codex", "project", ".codex/config.toml", false},
		{"codex", "local", ".codex/hooks.json", false},
		{"gemini", "project", ".gemini/settings.json", false},
		{"cursor", "project", ".cursor/mcp.json", false},
		{"cursor", "user", "~/.cursor/hooks.json", true},
	}
	for _, tt := range tests {
		t.Run(tt.agent+"/"+tt.scope+"/"+tt.file, func(t *testing.T) {
			o := options(t, tt.scope)
			if _, err := Install(tt.agent, o); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(o.Root, tt.file)
			if rest, ok := strings.CutPrefix(tt.file, "~/"); ok {
				path = filepath.Join(o.Home, rest)
			}
			got := string(read(t, path))
			if has := strings.Contains(got, "my tools/mnemo"); has != tt.absolute {
				t.Errorf("%s names the binary: %v, want %v:\n%s", tt.file, has, tt.absolute, got)
			}
			if !strings.Contains(got, "mnemo") {
				t.Errorf("%s does not run mnemo:\n%s", tt.file, got)
			}
		})
	}
}

// TestUninstallKeepsFormatting: a settings file with mnemo's entries that
// no backup explains (written by hand, or edited since) loses those
// entries and nothing else of its text.
func TestUninstallKeepsFormatting(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"tabs, one of two handlers",
			"{\"model\":\t\"opus\",\n\t\"hooks\": {\"SessionStart\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"echo hi\"}, {\"type\": \"command\", \"command\": \"mnemo hook session-start\"}]}]},\n\t\"env\": {}}\n",
			"{\"model\":\t\"opus\",\n\t\"hooks\": {\"SessionStart\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"echo hi\"}]}]},\n\t\"env\": {}}\n"},
		{"the last key goes",
			"{ \"a\": 1,\n  \"hooks\": { \"SessionEnd\": [ { \"hooks\": [ { \"type\": \"command\", \"command\": \"/x/mnemo hook session-end\" } ] } ] } }",
			"{ \"a\": 1 }"},
		{"the first key goes",
			"{\"hooks\":{\"PreCompact\":[{\"hooks\":[{\"command\":\"mnemo hook pre-compact\"}]}]},  \"b\": [1, 2]}",
			"{\"b\": [1, 2]}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := options(t, "project")
			settings := filepath.Join(o.Root, ".claude", "settings.json")
			os.MkdirAll(filepath.Dir(settings), 0o755)
			os.WriteFile(settings, []byte(tt.in), 0o644)
			if _, err := Uninstall("claude-code", o); err != nil {
				t.Fatal(err)
			}
			if got := string(read(t, settings)); got != tt.want {
				t.Errorf("after uninstall settings.json = %q, want %q", got, tt.want)
			}
		})
	}
}

// FuzzRemoveOnly: removing nothing gives the text back; removing a
// top-level key gives text that parses to the object without it.
func FuzzRemoveOnly(f *testing.F) {
	f.Add([]byte("{\"model\":\t\"opus\",\n\t\"hooks\": {\"A\": [1, {\"b\": null}]}}"))
	f.Add([]byte(`{"a": "\"}", "b": [ ], "c": {"d": 1e3}}`))
	f.Fuzz(func(t *testing.T, text []byte) {
		obj, err := parseJSON(text)
		if err != nil || len(obj.keys) == 0 {
			return
		}
		if _, err := scanSpans(text); err != nil {
			return // parseJSON's empty input and the like
		}
		if got, ok := removeOnly(text, obj); !ok || !bytes.Equal(got, text) {
			t.Fatalf("removeOnly(text, all of it) = %q, %v", got, ok)
		}
		obj.del(obj.keys[0])
		got, ok := removeOnly(text, obj)
		if !ok {
			return // a key repeated, say: the caller falls back to formatting
		}
		back, err := parseJSON(got)
		if err != nil || !bytes.Equal(formatJSON(back), formatJSON(obj)) {
			t.Fatalf("removeOnly dropping %q = %q (%v)", obj.keys, got, err)
		}
	})
}

// TestCodexHookHash checks the trust hash against the ones Codex CLI
// 0.171.0 accepted: with these entries in config.toml, 'codex exec' ran
// mnemo's hooks, and without them it did not.
func TestCodexHookHash(t *testing.T) {
	matcher := "startup|resume|clear"
	tests := []struct {
		event   string
		matcher *string
		command string
		timeout int
		want    string
	}{
		{"SessionStart", &matcher, "mnemo hook session-start --agent codex", 5, "sha256:cdf413135723829aea02ea4acf83fbcc543a93c4db9ce12d36db16c42ea8e04e"},
		{"SessionEnd", nil, "mnemo hook session-end --agent codex", 3, "sha256:981ab77db21890d4baf89f860f316a91be512346bfa9ca224dee20be7dcb31ff"},
		{"SessionEnd", nil, "mnemo hook session-end --agent codex", 30, "sha256:981ab77db21890d4baf89f860f316a91be512346bfa9ca224dee20be7dcb31ff"}, // clamped to 3
	}
	for _, tt := range tests {
		if got := codexHookHash(tt.event, tt.matcher, tt.command, tt.timeout, false); got != tt.want {
			t.Errorf("codexHookHash(%s, %d) = %s, want %s", tt.event, tt.timeout, got, tt.want)
		}
	}
	if got := snakeCase("UserPromptSubmit"); got != "user_prompt_submit" {
		t.Errorf("snakeCase = %q", got)
	}
}

// TestGeminiUpgrade: settings written by an older init (a SessionStart
// matcher Gemini never matches, a PreCompress hook that fired on every
// model call) are fixed by init again, and the user's hooks stay.
func TestGeminiUpgrade(t *testing.T) {
	o := options(t, "project")
	p := filepath.Join(o.Root, ".gemini", "settings.json")
	os.MkdirAll(filepath.Dir(p), 0o755)
	old := `{"hooks": {
  "SessionStart": [{"matcher": "startup|resume|clear", "hooks": [{"type": "command", "command": "mnemo hook session-start --agent gemini", "timeout": 5000}]}],
  "PreCompress": [{"hooks": [{"type": "command", "command": "mnemo hook pre-compact --agent gemini", "timeout": 5000}]},
                  {"hooks": [{"type": "command", "command": "./mine.sh"}]}]
}}`
	os.WriteFile(p, []byte(old), 0o644)
	if _, err := Install("gemini", o); err != nil {
		t.Fatal(err)
	}
	got := string(read(t, p))
	for _, not := range []string{"startup|resume|clear", "pre-compact"} {
		if strings.Contains(got, not) {
			t.Errorf("the settings still have %q:\n%s", not, got)
		}
	}
	for _, want := range []string{"./mine.sh", "hook session-start --agent gemini", "hook session-end --agent gemini"} {
		if !strings.Contains(got, want) {
			t.Errorf("the settings lack %q:\n%s", want, got)
		}
	}
}
