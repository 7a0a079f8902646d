package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/fence"
	"github.com/mnemo-dev/mnemo/internal/gittest"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/project"
	"github.com/mnemo-dev/mnemo/internal/staleness"
)

var now = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

// setup makes a git project with a vault and returns a runner over it.
func setup(t *testing.T) (root string, r *Runner, out *bytes.Buffer) {
	t.Helper()
	root, home := t.TempDir(), t.TempDir()
	if err := exec.Command("git", "init", "-q", root).Run(); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(root, ".memory"), 0o755)
	env := map[string]string{"MNEMO_HOME": filepath.Join(home, ".mnemo"), "CLAUDE_CONFIG_DIR": filepath.Join(home, ".claude")}
	out = new(bytes.Buffer)
	// Deadlines a loaded machine cannot miss: what a hook gives must not
	// depend on the machine's speed (under -race at load 5, session start
	// building the index of 300 memories passed its 2 s and gave nothing).
	// The tests of the deadlines set their own.
	slow := make(map[string]time.Duration)
	for _, e := range Events {
		slow[e] = time.Minute
	}
	r = &Runner{
		Env:       project.Env{Home: home, Getenv: func(k string) string { return env[k] }},
		Now:       func() time.Time { return now },
		Getwd:     func() (string, error) { return root, nil },
		Stdout:    out,
		deadlines: slow,
	}
	return root, r, out
}

// writeMemory writes m as mnemo would (with a source: reviewed, unless
// the test gives a memory written outside mnemo its own way).
func writeMemory(t *testing.T, dir string, m *memory.Memory) {
	t.Helper()
	if m.Source == "" {
		m.Source = "manual"
	}
	if err := os.WriteFile(filepath.Join(dir, m.Name+".md"), m.Render(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// context decodes a hook's stdout and returns its additionalContext.
func contextOf(t *testing.T, out []byte) string {
	t.Helper()
	if len(out) == 0 {
		return ""
	}
	var v struct {
		HookSpecificOutput struct{ AdditionalContext string } `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("hook printed invalid JSON %q: %v", out, err)
	}
	return v.HookSpecificOutput.AdditionalContext
}

func run(r *Runner, event string, in map[string]any) {
	data, _ := json.Marshal(in)
	r.Run(context.Background(), event, bytes.NewReader(data))
}

// TestSessionStartCap: however many memories there are, the context stays
// within the session's budget (memory.ContextTokens, 4 characters each)
// and is whole; it comes near it, short of at most a body (about 600
// characters here).
func TestSessionStartCap(t *testing.T) {
	root, r, out := setup(t)
	for i := range 300 {
		writeMemory(t, filepath.Join(root, ".memory"), memory.New(memory.Header{
			Name: fmt.Sprintf("m%03d", i), Description: fmt.Sprintf("Memory %d about a long topic %s", i, strings.Repeat("x", 80)),
			Type: memory.Types[i%4], Updated: now.Add(-time.Duration(i) * time.Hour),
		}, strings.Repeat(fmt.Sprintf("Body of memory %d. ", i), 30)))
	}
	os.WriteFile(filepath.Join(root, ".memory", "MEMORY.md"), nil, 0o644)
	// A MEMORY.md as reindex makes it: 200 lines, most of them entries.
	var idx strings.Builder
	idx.WriteString("# Memory index\n<!-- mnemo:begin — generated -->\n")
	for i := range 190 {
		fmt.Fprintf(&idx, "- [m%03d](m%03d.md) — Memory %d about a long topic %s\n", i, i, i, strings.Repeat("x", 80))
	}
	idx.WriteString("<!-- mnemo:end -->\n")
	os.WriteFile(filepath.Join(root, ".memory", "MEMORY.md"), []byte(idx.String()), 0o644)
	gittest.FromTeammate(t, root, ".memory")

	run(r, SessionStart, map[string]any{"session_id": "s", "cwd": root, "source": "startup"})
	ctx := contextOf(t, out.Bytes())
	if n, budget := utf8.RuneCountInString(ctx), 4*memory.ContextTokens; n > budget || n < budget-700 {
		t.Errorf("context is %d characters, want at most %d (and near it)", n, budget)
	}
	if !strings.HasPrefix(ctx, fence.Memory.Open()+"\n") || !strings.HasSuffix(ctx, fence.Memory.Close()) {
		t.Errorf("context is not fenced whole: %q … %q", ctx[:min(40, len(ctx))], ctx[max(0, len(ctx)-40):])
	}
	if !strings.Contains(ctx, "more project memories: recall them by topic") {
		t.Errorf("a cut index does not say how many lines it left out")
	}
}

// TestSessionStartStaleAndCompact: a memory whose anchored file changed is
// listed with its reason and its body held back; after a compaction, what
// the session wrote comes first.
func TestSessionStartStaleAndCompact(t *testing.T) {
	root, r, out := setup(t)
	vaultDir := filepath.Join(root, ".memory")
	src := filepath.Join(root, "service.go")
	os.WriteFile(src, []byte("package auth\n"), 0o644)
	anchors, err := staleness.Anchor(root, root, "", []string{src})
	if err != nil {
		t.Fatal(err)
	}
	writeMemory(t, vaultDir, memory.New(memory.Header{Name: "auth-service", Description: "Auth lives in service.go",
		Type: memory.TypeProject, Updated: now.Add(-48 * time.Hour), Anchors: anchors}, "Auth is in service.go."))
	writeMemory(t, vaultDir, memory.New(memory.Header{Name: "fresh-fact", Description: "A fact written this session",
		Type: memory.TypeProject, Updated: now.Add(-time.Minute)}, "Written during the session."))
	gittest.FromTeammate(t, root, ".memory")
	os.WriteFile(src, []byte("package auth // changed\n"), 0o644)
	transcript := filepath.Join(t.TempDir(), "s.jsonl")
	os.WriteFile(transcript, []byte(`{"type":"user","timestamp":"`+now.Add(-time.Hour).Format(time.RFC3339)+`"}`+"\n"), 0o644)

	run(r, SessionStart, map[string]any{"session_id": "s", "cwd": root, "source": "compact", "transcript_path": transcript})
	ctx := contextOf(t, out.Bytes())
	if !strings.Contains(ctx, "- auth-service: service.go changed since 2026-11-28") {
		t.Errorf("context does not list the stale memory with its reason:\n%s", ctx)
	}
	if strings.Contains(ctx, "### auth-service") {
		t.Errorf("the stale memory's body was injected:\n%s", ctx)
	}
	written := strings.Index(ctx, "Written in this session so far:\n### fresh-fact")
	if written < 0 || written > strings.Index(ctx, "Possibly stale") {
		t.Errorf("after a compaction, the session's own memory does not come first:\n%s", ctx)
	}
}

// TestDeadline: a hook whose work outlives its deadline returns at the
// deadline, prints nothing, even what the work prints later, and logs why.
// So does one whose context ends before it starts.
func TestDeadline(t *testing.T) {
	root, r, out := setup(t)
	release := make(chan struct{})
	finished := make(chan struct{})
	r.deadlines = map[string]time.Duration{SessionStart: 50 * time.Millisecond}
	r.respond = func(context.Context, *world, string, Input) ([]byte, error) {
		defer close(finished)
		<-release // deaf to its context, as a stuck system call would be
		return []byte("late"), nil
	}
	ran := make(chan struct{})
	go func() {
		r.Run(context.Background(), SessionStart, strings.NewReader(`{"cwd":"`+root+`"}`))
		close(ran)
	}()
	select {
	case <-ran: // while the work is still blocked
	case <-time.After(10 * time.Second):
		close(release)
		t.Fatal("Run waited for its work, past its 50 ms deadline")
	}
	close(release)
	<-finished
	if out.Len() != 0 {
		t.Errorf("a hook past its deadline printed %q", out)
	}
	w := r.world(context.Background(), Input{Cwd: root})
	logged, _ := os.ReadFile(filepath.Join(w.state, "log"))
	if !strings.Contains(string(logged), "gave up at its deadline") {
		t.Errorf("the state log does not say the hook gave up:\n%s", logged)
	}

	// The real handler, waited for: Run may return before it ends, and
	// it still writes to the state folder (the check of native writes),
	// which would then outlive the test's temporary folders.
	handled := make(chan struct{})
	r.respond = func(ctx context.Context, w *world, event string, in Input) ([]byte, error) {
		defer close(handled)
		return r.handle(ctx, w, event, in)
	}
	writeMemory(t, filepath.Join(root, ".memory"), memory.New(memory.Header{Name: "a", Description: "A", Type: memory.TypeUser}, "a"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r.Run(ctx, SessionStart, strings.NewReader(`{"cwd":"`+root+`"}`))
	<-handled
	if out.Len() != 0 {
		t.Errorf("a hook whose context ended printed %q", out)
	}
}

// TestDeadlineScale: $MNEMO_HOOK_DEADLINE_SCALE multiplies the deadline a
// hook's work gets by a number from 1 to 100; any other value leaves it as
// it is and is named in the state log.
func TestDeadlineScale(t *testing.T) {
	tests := []struct {
		value  string
		scale  float64
		logged bool
	}{
		{"", 1, false},
		{"1", 1, false},
		{"10", 10, false},
		{"2.5", 2.5, false},
		{"100", 100, false},
		{"0.5", 1, true},
		{"101", 1, true},
		{"1e300", 1, true},
		{"NaN", 1, true},
		{"-3", 1, true},
		{"ten", 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.value, func(t *testing.T) {
			root, r, _ := setup(t)
			base := time.Minute
			r.deadlines = map[string]time.Duration{SessionStart: base}
			getenv := r.Env.Getenv
			r.Env.Getenv = func(k string) string {
				if k == DeadlineScaleVar {
					return tt.value
				}
				return getenv(k)
			}
			var left time.Duration
			r.respond = func(ctx context.Context, _ *world, _ string, _ Input) ([]byte, error) {
				dl, _ := ctx.Deadline()
				left = time.Until(dl)
				return nil, nil
			}
			r.Run(context.Background(), SessionStart, strings.NewReader(`{"cwd":"`+root+`"}`))
			// The work got the scaled deadline: more than the next smaller
			// factor's (or half the base's) and at most its own.
			want := time.Duration(float64(base) * tt.scale)
			if left > want || left <= want-base/2 {
				t.Errorf("with %s=%q the work had %v left, want %v (at most, less than %v sooner)", DeadlineScaleVar, tt.value, left, want, base/2)
			}
			w := r.world(context.Background(), Input{Cwd: root})
			logged, _ := os.ReadFile(filepath.Join(w.state, "log"))
			if got := strings.Contains(string(logged), DeadlineScaleVar); got != tt.logged {
				t.Errorf("with %s=%q the state log names it: %v, want %v:\n%s", DeadlineScaleVar, tt.value, got, tt.logged, logged)
			}
		})
	}
}

func TestClears(t *testing.T) {
	tests := []struct {
		shared, n int
		want      bool
	}{
		{1, 1, true}, {1, 2, false}, {2, 2, true}, {2, 5, true}, {2, 9, false}, {3, 30, true}, {0, 0, false},
	}
	for _, tt := range tests {
		if got := clears(tt.shared, tt.n); got != tt.want {
			t.Errorf("clears(%d, %d) = %v, want %v", tt.shared, tt.n, got, tt.want)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"session_id":"abc","transcript_path":"/t.jsonl","cwd":"/x","hook_event_name":"SessionStart","source":"startup"}`))
	f.Add([]byte(`{"conversation_id":"c","workspace_roots":["/w"],"prompt":"p"}`))
	f.Add([]byte(`{"session_id":1,"cwd":null}`))
	f.Add([]byte(`{"session_id":"g","hook_event_name":"BeforeAgent","prompt":"<hook_context>&lt;mnemo-memory&gt;x&lt;/mnemo-memory&gt;</hook_context>\n\nHello"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, _ := Decode(bytes.NewReader(data))
		if in.SessionID == "" && in.ConversationID != "" {
			t.Fatalf("Decode(%q) lost the conversation id", data)
		}
		n := len(in.SessionID) + len(in.TranscriptPath) + len(in.Cwd) + len(in.Prompt) + len(in.Source) + len(in.Reason)
		if n > MaxInput {
			t.Fatalf("Decode read %d bytes of fields from a reader limited to %d", n, MaxInput)
		}
		// What was read reads back the same: the fields are plain values.
		again, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		if back, err := Decode(bytes.NewReader(again)); err != nil || !reflect.DeepEqual(back, in) && len(again) <= MaxInput {
			t.Fatalf("Decode(%q) = %+v, which reads back as %+v, %v", data, in, back, err)
		}
	})
}

// TestStdinLeftOpen: a hook whose stdin stays open (its writer neither
// finishes the JSON nor closes its end) returns by its deadline; one whose
// writer sent the whole object and keeps the pipe open answers at once.
func TestStdinLeftOpen(t *testing.T) {
	root, r, out := setup(t)
	writeMemory(t, filepath.Join(root, ".memory"), memory.New(memory.Header{Name: "a", Description: "A fact about the tests", Type: memory.TypeUser, Source: "manual"}, "a"))
	for _, sent := range []string{"", `{"cwd":"` + root + `"`, `{"cwd":"` + root + `","session_id":"s1","source":"startup"}`} {
		// Nothing or half an object waits out a short deadline; a whole
		// object is answered without waiting for the end of stdin, within
		// a deadline a loaded machine cannot miss (it returned empty at
		// 200 ms on a machine at load 12).
		d := 200 * time.Millisecond
		if strings.HasSuffix(sent, "}") {
			d = 8 * time.Second
		}
		r.deadlines = map[string]time.Duration{SessionStart: d}
		pr, pw := io.Pipe()
		go pw.Write([]byte(sent)) // and never closed
		ran := make(chan struct{})
		go func() {
			r.Run(context.Background(), SessionStart, pr)
			close(ran)
		}()
		select {
		case <-ran:
		case <-time.After(20 * time.Second):
			t.Fatalf("with %q sent and stdin left open, the hook did not return", sent)
		}
		pw.Close()
	}
	if !strings.Contains(out.String(), "additionalContext") {
		t.Errorf("the hook given a whole object on an open stdin printed %q, want its answer", out)
	}
}

// TestSessionID: a plain id is kept; one with control characters, invalid
// UTF-8 or past maxSessionID bytes becomes a digest, the same each time.
func TestSessionID(t *testing.T) {
	long := strings.Repeat("x", maxSessionID+1)
	tests := []struct {
		in   string
		keep bool
	}{
		{"0f9c2a1e-5b7d-4c3a-9e8f-1a2b3c4d5e6f", true},
		{"", true},
		{"../../etc/x", true}, // no file name is made of it
		{strings.Repeat("x", maxSessionID), true},
		{long, false},
		{"a\x1b]0;t\x07b", false},
		{"a\nb", false},
		{"a\xc3", false},
	}
	for _, tt := range tests {
		got := sessionID(tt.in)
		if (got == tt.in) != tt.keep {
			t.Errorf("sessionID(%.40q) = %.40q, keep = %v", tt.in, got, tt.keep)
		}
		if !tt.keep && (!strings.HasPrefix(got, "sha256-") || len(got) != len("sha256-")+32 || sessionID(tt.in) != got) {
			t.Errorf("sessionID(%.40q) = %q, want a stable sha256- digest", tt.in, got)
		}
	}
}
