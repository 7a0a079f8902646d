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
		{"text exit 1", str("Exit code: 1\nWall time: 2 seconds\nOutput:\nboom\n"), "Exit code: 1\nWall time: 2 seconds\nOutput:\nboom\n", true},
		{"text exit 0", str("Exit code: 0\nOutput:\nfine\n"), "Exit code: 0\nOutput:\nfine\n", false},
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
