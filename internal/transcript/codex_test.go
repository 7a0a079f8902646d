package transcript

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestCodexRollout digests a Codex CLI rollout file as it would a Claude
// Code transcript: the person's prompts (not Codex's own context messages,
// not the event_msg copies), the shell commands as Bash calls, the failure
// and what fixed it, the files a patch touched, the compaction summary.
func TestCodexRollout(t *testing.T) {
	d := digestFiles(t, Options{}, filepath.Join("testdata", "codex.jsonl"))
	golden(t, "codex.digest", d.String())

	m := d.Meta
	if m.SessionID != "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b" || m.CWD != "/home/dev/shop" ||
		m.GitBranch != "fix-ci-timeouts" || m.Agent != "codex" || m.Version != "0.63.0" {
		t.Errorf("Meta = %+v", m)
	}
	var prompts []string
	for _, turn := range d.Turns {
		for _, it := range turn.Items {
			if it.Kind == ItemUser {
				prompts = append(prompts, it.Text)
			}
		}
	}
	if len(prompts) != 2 || !strings.HasPrefix(prompts[0], "The store tests time out") || !strings.HasPrefix(prompts[1], "Good. Remember") {
		t.Errorf("prompts = %q, want the two the person typed, once each", prompts)
	}
	f := d.Files()
	if strings.Join(f.Created, ",") != "internal/store/wait_test.go" || strings.Join(f.Edited, ",") != "internal/store/store_test.go" {
		t.Errorf("Files() = %+v", f)
	}
	fails := d.Failures()
	if len(fails) != 1 || fails[0].Call.Arg != "go test ./internal/store/..." || !strings.Contains(fails[0].Call.Error, "connection refused") ||
		fails[0].FixedBy == nil || fails[0].FixedBy.Arg != "go test ./internal/store/..." {
		t.Errorf("Failures() = %+v, want the failing go test, fixed by the run after the patch", fails)
	}
}

func TestCodexOutput(t *testing.T) {
	str := func(s string) json.RawMessage { b, _ := json.Marshal(s); return b }
	tests := []struct {
		name   string
		raw    json.RawMessage
		text   string
		failed bool
	}{
		{"json with exit code", str(`{"output":"FAIL\n","metadata":{"exit_code":2,"duration_seconds":1}}`), "FAIL\n", true},
		{"json exit 0", str(`{"output":"ok\n","metadata":{"exit_code":0}}`), "ok\n", false},
		{"text exit 1", str("Exit code: 1\nWall time: 2 seconds\nOutput:\nboom\n"), "Exit code 1\nboom\n", true},
		{"text exit 0", str("Exit code: 0\nOutput:\nfine\n"), "fine\n", false},
		// Codex 0.171's exec_command output, as its rollouts hold it.
		{"process exited 2", str("Chunk ID: 722fda\nWall time: 0.0000 seconds\nProcess exited with code 2\nOriginal token count: 16\nOutput:\nls: cannot access 'web/x': No such file or directory\n"),
			"Exit code 2\nls: cannot access 'web/x': No such file or directory\n", true},
		{"process exited 0", str("Chunk ID: 1a2b3c\nWall time: 0.0012 seconds\nProcess exited with code 0\nOriginal token count: 3\nOutput:\nfine\n"), "fine\n", false},
		{"process exited 127", str("Process exited with code 127\nOutput:\nbash: nope: command not found\n"), "Exit code 127\nbash: nope: command not found\n", true},
		{"plain", str("Plan updated"), "Plan updated", false},
		{"object failed", json.RawMessage(`{"content":"no such file","success":false}`), "no such file", true},
		{"object ok", json.RawMessage(`{"content":"done","success":true}`), "done", false},
		{"json without output", str(`{"a":1}`), `{"a":1}`, false},
		{"garbage", json.RawMessage(`[1,2]`), "", false},
		{"missing", nil, "", false},
	}
	for _, tt := range tests {
		text, failed := codexOutput(tt.raw)
		if text != tt.text || failed != tt.failed {
			t.Errorf("%s: codexOutput = %q, %v; want %q, %v", tt.name, text, failed, tt.text, tt.failed)
		}
	}
}

func TestPatchFiles(t *testing.T) {
	patch := "*** Begin Patch\n*** Update File: a.go\n*** Move to: b.go\n@@\n-x\n+y\n*** Add File: c.go\n+package c\n*** Delete File: d.go\n*** End Patch\n"
	got := patchFiles(patch)
	want := []patchFile{{"a.go", false}, {"b.go", false}, {"c.go", true}, {"d.go", false}}
	if len(got) != len(want) {
		t.Fatalf("patchFiles = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("patchFiles[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func TestCodexCalls(t *testing.T) {
	tests := []struct {
		name string
		line string
		want []string // name and input of each block
	}{
		{"shell argv", `{"type":"function_call","name":"shell","call_id":"c","arguments":"{\"command\":[\"bash\",\"-lc\",\"make test\"]}"}`,
			[]string{`Bash {"command":"make test"}`}},
		{"shell plain argv", `{"type":"function_call","name":"shell","call_id":"c","arguments":"{\"command\":[\"git\",\"status\"]}"}`,
			[]string{`Bash {"command":"git status"}`}},
		{"shell string", `{"type":"function_call","name":"shell_command","call_id":"c","arguments":"{\"command\":\"ls -la\"}"}`,
			[]string{`Bash {"command":"ls -la"}`}},
		{"local shell", `{"type":"local_shell_call","call_id":"c","action":{"type":"exec","command":["sh","-c","npm test"]}}`,
			[]string{`Bash {"command":"npm test"}`}},
		{"exec_command", `{"type":"function_call","name":"exec_command","call_id":"c","arguments":"{\"cmd\":\"go vet ./...\"}"}`,
			[]string{`Bash {"command":"go vet ./..."}`}},
		{"patch as a function", `{"type":"function_call","name":"apply_patch","call_id":"c","arguments":"{\"input\":\"*** Begin Patch\\n*** Add File: a.go\\n+x\\n*** Update File: b.go\\n*** End Patch\"}"}`,
			[]string{`Write {"file_path":"a.go"}`, `Edit {"file_path":"b.go"}`}},
		{"patch naming no file", `{"type":"custom_tool_call","name":"apply_patch","call_id":"c","input":"garbage"}`,
			[]string{`apply_patch {"input":"garbage"}`}},
		{"other tool", `{"type":"function_call","name":"update_plan","call_id":"c","arguments":"{\"plan\":[]}"}`,
			[]string{`update_plan {"plan":[]}`}},
		{"arguments not JSON", `{"type":"function_call","name":"view_image","call_id":"c","arguments":"oops"}`,
			[]string{`view_image {"input":"oops"}`}},
	}
	for _, tt := range tests {
		var p codexLine
		if err := json.Unmarshal([]byte(tt.line), &p); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		r := NewReader(strings.NewReader(""), 0)
		var got []string
		for _, b := range r.codexCalls(p) {
			got = append(got, b.Name+" "+string(b.Input))
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%s: blocks %q, want %q", tt.name, got, tt.want)
		}
	}
	// The output of a patch that made several blocks answers each of them.
	r := NewReader(strings.NewReader(""), 0)
	var p codexLine
	json.Unmarshal([]byte(`{"type":"custom_tool_call","name":"apply_patch","call_id":"p","input":"*** Add File: a.go\n*** Update File: b.go\n"}`), &p)
	r.codexCalls(p)
	if ids := r.codexIDs("p"); strings.Join(ids, ",") != "p,p/2" {
		t.Errorf("codexIDs(p) = %q, want p and p/2", ids)
	}
	if ids := r.codexIDs("q"); strings.Join(ids, ",") != "q" {
		t.Errorf("codexIDs(q) = %q, want q", ids)
	}
}
