package worker

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/extract"
	"github.com/mnemo-dev/mnemo/internal/fakeapi"
	"github.com/mnemo-dev/mnemo/internal/queue"
)

// evidence holds small Claude Code transcripts of package transcript's
// tests, each showing one kind of evidence.
var evidence = filepath.Join("..", "transcript", "testdata", "evidence")

// modelExtractor is the anthropic extractor against a fake model, with
// the default gate and chunking.
func modelExtractor(t *testing.T, model *fakeapi.Model) Extractor {
	t.Helper()
	cfg := extract.DefaultConfig(func(string) string { return "" })
	cfg.Provider, cfg.APIKey, cfg.BaseURL, cfg.Backoff = extract.ProviderAnthropic, "sk-ant-test", model.URL(), time.Millisecond
	x, err := extract.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return FromExtract(x)
}

// runJob queues the transcript as session's job and runs a worker over it.
func runJob(t *testing.T, p *project, x Extractor, session, path string) queue.Job {
	t.Helper()
	ctx := context.Background()
	id, err := p.q.Enqueue(ctx, queue.Job{Session: session, Transcript: path, Event: "session-end"})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.worker(x, time.Minute).Run(ctx); err != nil {
		t.Fatal(err)
	}
	jobs, _ := p.q.List(ctx)
	for _, j := range jobs {
		if j.ID == id {
			return j
		}
	}
	t.Fatalf("job %d is gone", id)
	return queue.Job{}
}

// copyTree copies the files under src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o755)
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestModelGetsTheWork runs the worker with the model provider on
// sessions of one prompt: what they did reaches the request.
func TestModelGetsTheWork(t *testing.T) {
	tests := []struct {
		name, file string
		want       []string // in the request
	}{
		// One prompt and an edit: sent, though it has one prompt.
		{"one prompt with real work", "title.jsonl", []string{"Coupon codes should be case-insensitive.", "tool: Edit internal/cart/coupon.go -> ok"}},
		// A failure a pipe hides: its decisive line and last lines.
		{"a piped test run", "pipes.jsonl", []string{
			"go test ./internal/cart/... 2>&1 | tail -20` -> ok (status of tail; the output reports a failure)",
			"coupon_test.go:42: Total() = 80, want 90",
			"ok  \\tshop/internal/cart\\t0.010s", // the last line of the run that passed
			"Tests:       1 failed, 4 passed, 5 total",
		}},
		// Errors: the decisive lines, not the counts and warnings.
		{"error shapes", "errors.jsonl", []string{"cyclomatic complexity is 13, max is 9", "The pattern can never match the type."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newProject(t)
			model := fakeapi.New(t, fakeapi.Reply{Text: "[]"})
			j := runJob(t, p, modelExtractor(t, model), "s", filepath.Join(evidence, tt.file))
			if j.State != "done" || j.Skipped != "" {
				t.Fatalf("job = %s (skipped %q, error %q), want done and sent", j.State, j.Skipped, j.LastError)
			}
			reqs := model.Requests()
			if len(reqs) != 1 {
				t.Fatalf("the model got %d requests, want 1", len(reqs))
			}
			for _, w := range tt.want {
				if !strings.Contains(reqs[0], w) {
					t.Errorf("the request lacks %q", w)
				}
			}
			if strings.Contains(reqs[0], "npm warn") {
				t.Errorf("the request holds npm's warnings")
			}
		})
	}
}

// TestSubagentsWithParent: a sub-agent's transcript is digested with its
// parent's job, once: the next job of the session reads only what is new.
func TestSubagentsWithParent(t *testing.T) {
	dir := t.TempDir()
	copyTree(t, evidence, dir)
	main := filepath.Join(dir, "agents.jsonl")
	p := newProject(t)
	model := fakeapi.New(t, fakeapi.Reply{Text: "[]"}, fakeapi.Reply{Text: "[]"})
	x := modelExtractor(t, model)
	if j := runJob(t, p, x, "agents", main); j.State != "done" || j.Skipped != "" {
		t.Fatalf("job = %+v, want done and sent", j)
	}
	reqs := model.Requests()
	if len(reqs) != 1 {
		t.Fatalf("the model got %d requests, want 1", len(reqs))
	}
	for _, w := range []string{"parent agent: Add a token-bucket rate limiter", "ratelimit_test.go:20: allowed 101 requests, want at most 100", "work in turn 2"} {
		if !strings.Contains(reqs[0], w) {
			t.Errorf("the request lacks the sub-agent's %q", w)
		}
	}
	if n := strings.Count(reqs[0], "Added internal/api/ratelimit.go"); n != 1 {
		t.Errorf("the sub-agent's report is in the request %d times, want once", n)
	}

	// The session goes on; the sub-agent's file does not change.
	f, err := os.OpenFile(main, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"user","uuid":"z1","sessionId":"7c1e9a20-3b4d-4f5e-8a6b-9c0d1e2f3a4b","timestamp":"2026-11-30T10:05:00.000Z","message":{"role":"user","content":"Now add a test for the limiter's reset, and run it."}}` + "\n" +
		`{"type":"assistant","uuid":"z2","sessionId":"7c1e9a20-3b4d-4f5e-8a6b-9c0d1e2f3a4b","timestamp":"2026-11-30T10:05:10.000Z","requestId":"rz","message":{"id":"mz","role":"assistant","content":[{"type":"tool_use","id":"tz","name":"Write","input":{"file_path":"/home/dev/shop/internal/api/reset_test.go","content":"package api"}}]}}` + "\n" +
		`{"type":"user","uuid":"z3","sessionId":"7c1e9a20-3b4d-4f5e-8a6b-9c0d1e2f3a4b","timestamp":"2026-11-30T10:05:20.000Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"tz","content":"File created successfully"}]}}` + "\n")
	f.Close()
	if j := runJob(t, p, x, "agents", main); j.State != "done" || j.Skipped != "" {
		t.Fatalf("second job = %+v, want done and sent", j)
	}
	reqs = model.Requests()
	if len(reqs) != 2 {
		t.Fatalf("the model got %d requests, want 2", len(reqs))
	}
	if strings.Contains(reqs[1], "token-bucket") || !strings.Contains(reqs[1], "limiter's reset") {
		t.Errorf("the second request is not only what is new:\n%s", reqs[1])
	}
}

// TestSkipSaysWhy: a session of talk is not sent; its job is done and
// says why, and the session is read again whole by its next job.
func TestSkipSaysWhy(t *testing.T) {
	p := newProject(t)
	model := fakeapi.New(t)
	tr := filepath.Join(t.TempDir(), "s.jsonl")
	appendLines(t, tr, line("s", "What does the billing job do?", 1))
	j := runJob(t, p, modelExtractor(t, model), "s", tr)
	if j.State != "done" || !strings.Contains(j.Skipped, "too little work") || !strings.Contains(j.Skipped, "1 prompt and 0 tool calls") {
		t.Errorf("job = %s, skipped %q: want done, skipped with what was counted", j.State, j.Skipped)
	}
	if n := len(model.Requests()); n != 0 {
		t.Errorf("the model got %d requests, want none", n)
	}
}

// TestBudgetKeepsEndThroughWorker: a long session past the session's
// budget reaches the model by its end: the last prompt and the failure.
func TestBudgetKeepsEndThroughWorker(t *testing.T) {
	tr := filepath.Join(t.TempDir(), "long.jsonl")
	var lines []string
	for i := range 300 {
		lines = append(lines, line("long", "Step: rename the billing handlers and keep the tests green, "+strings.Repeat("carefully ", 30), i))
	}
	lines = append(lines, line("long", "Last: the rounding in invoice.go is still wrong; leave it for tomorrow.", 301))
	appendLines(t, tr, lines...)
	script := make([]fakeapi.Reply, 10)
	for i := range script {
		script[i] = fakeapi.Reply{Text: "[]", InputTokens: 25_000}
	}
	model := fakeapi.New(t, script...)
	cfg := extract.DefaultConfig(func(string) string { return "" })
	cfg.Provider, cfg.APIKey, cfg.BaseURL = extract.ProviderAnthropic, "sk-ant-test", model.URL()
	cfg.ChunkTokens = 5000
	x, err := extract.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	p := newProject(t)
	j := runJob(t, p, FromExtract(x), "long", tr)
	reqs := model.Requests()
	if j.State != "done" || len(reqs) == 0 || len(reqs) > 3 {
		t.Fatalf("job %s, %d requests: want done within the budget", j.State, len(reqs))
	}
	if !strings.Contains(reqs[0], "Last: the rounding in invoice.go is still wrong") {
		t.Errorf("the first request is not the session's end")
	}
}
