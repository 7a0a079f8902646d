package extract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/fakeapi"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/redact"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// longScript is a session of n prompts of about 100 tokens each.
func longScript(n int) string {
	var b strings.Builder
	b.WriteString("cwd: /home/dev/shop\n---\n")
	for i := range n {
		fmt.Fprintf(&b, "user: Step %d: %s\n", i+1, strings.Repeat("rename the billing handlers and keep the tests green ", 7))
		fmt.Fprintf(&b, "assistant: Done with step %d.\n", i+1)
	}
	return b.String()
}

// failingLedger fails every call.
type failingLedger struct{}

func (failingLedger) Spent(context.Context, string) (int, error) {
	return 0, errors.New("database is locked")
}
func (failingLedger) Record(context.Context, string, Usage) error {
	return errors.New("database is locked")
}

// emptyModel is a fake model that answers [] n times.
func emptyModel(t *testing.T, n int) *fakeapi.Model {
	script := make([]fakeapi.Reply, n)
	for i := range script {
		script[i].Text = "[]"
	}
	return fakeapi.New(t, script...)
}

var noon = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func TestGuard(t *testing.T) {
	one := scriptDigest(t, "cwd: /x\n---\nuser: /mcp\nuser: Fix the build, please.\nassistant: Fixed.\n", "")
	two := testProject(t)
	long := scriptDigest(t, longScript(40), "")
	t.Logf("long digest: %d tokens, %d chunks of 1000", long.Tokens(), len(long.Chunks(1000)))

	tests := []struct {
		name     string
		cfg      func(*Config)
		digest   *transcript.Digest
		requests int
		wantErr  error
		scope    string // of the *BudgetError
		skipped  int
	}{
		{"too few user turns", func(c *Config) { c.MinUserTurns = 2 }, one, 0, ErrTooShort, "", 0},
		{"enough user turns", func(c *Config) { c.MinUserTurns = 2 }, two, 1, nil, "", 0},
		{"no minimum", func(c *Config) { c.MinUserTurns = -1 }, one, 1, nil, "", 0},
		{"session budget below one call", func(c *Config) { c.MaxTokensPerSession = 3000 }, two, 0, ErrBudget, "session", 0},
		{"day budget spent", func(c *Config) {
			l := NewMemoryLedger()
			l.Record(context.Background(), "2026-11-30", Usage{InputTokens: 999_000})
			c.Ledger = l
		}, two, 0, ErrBudget, "day", 0},
		{"yesterday's spend does not count", func(c *Config) {
			l := NewMemoryLedger()
			l.Record(context.Background(), "2026-11-29", Usage{InputTokens: 999_000})
			c.Ledger = l
		}, two, 1, nil, "", 0},
		{"no day limit", func(c *Config) {
			l := NewMemoryLedger()
			l.Record(context.Background(), "2026-11-30", Usage{InputTokens: 5_000_000})
			c.Ledger, c.MaxTokensPerDay = l, -1
		}, two, 1, nil, "", 0},
		{"chunks", func(c *Config) { c.ChunkTokens = 1000; c.MaxOutputTokens = 200 }, long, len(long.Chunks(1000)), nil, "", 0},
		{"a ledger that fails", func(c *Config) { c.Ledger = failingLedger{} }, two, 0, errAny, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model := emptyModel(t, 10)
			cfg := testConfig(ProviderAnthropic, model.URL())
			cfg.Now = func() time.Time { return noon }
			tt.cfg(&cfg)
			x := newExtractor(t, cfg)
			_, u, err := x.Extract(context.Background(), tt.digest)
			if n := len(model.Requests()); n != tt.requests {
				t.Errorf("the model got %d requests, want %d", n, tt.requests)
			}
			if u.Skipped != tt.skipped {
				t.Errorf("Usage.Skipped = %d, want %d", u.Skipped, tt.skipped)
			}
			switch {
			case tt.wantErr == nil:
				if err != nil {
					t.Fatalf("Extract: %v", err)
				}
			case tt.wantErr == errAny:
				if err == nil || errors.Is(err, ErrBudget) {
					t.Fatalf("Extract error = %v, want the ledger's", err)
				}
			case !errors.Is(err, tt.wantErr):
				t.Fatalf("Extract error = %v, want %v", err, tt.wantErr)
			}
			var be *BudgetError
			if tt.scope != "" && (!errors.As(err, &be) || be.Scope != tt.scope) {
				t.Errorf("Extract error = %v, want a %s *BudgetError", err, tt.scope)
			}
		})
	}
}

// TestSessionBudgetStopsChunks: with calls that really cost what a chunk
// holds, the session budget lets two chunks of five through; the rest are
// skipped, not failed.
func TestSessionBudgetStopsChunks(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		w.Header().Set("content-type", "application/json")
		fmt.Fprint(w, `{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"[]"}],`+
			`"stop_reason":"end_turn","usage":{"input_tokens":1500,"output_tokens":100}}`)
	}))
	defer srv.Close()
	cfg := testConfig(ProviderAnthropic, srv.URL)
	cfg.ChunkTokens, cfg.MaxOutputTokens = 1000, 200
	ledger := NewMemoryLedger()
	cfg.Ledger = ledger
	cfg.Now = func() time.Time { return noon }
	long := scriptDigest(t, longScript(40), "")
	reqs, err := Requests(context.Background(), cfg, long)
	if err != nil || len(reqs) != 5 {
		t.Fatalf("Requests = %d, %v; want 5", len(reqs), err)
	}
	// Room for a call of 1,600 tokens spent and the next one's estimate,
	// with half a call to spare: two calls, not a third.
	cfg.MaxTokensPerSession = 1600 + reqs[1].Tokens + 800
	_, u, err := newExtractor(t, cfg).Extract(context.Background(), long)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Usage{InputTokens: 3000, OutputTokens: 200, Calls: 2, Skipped: 3}); u != want || calls.Load() != 2 {
		t.Errorf("Usage = %+v after %d calls, want %+v", u, calls.Load(), want)
	}
	if got, _ := ledger.Spent(context.Background(), "2026-11-30"); got != 3200 {
		t.Errorf("ledger spent = %d, want 3200", got)
	}
}

// TestLedgerAcrossExtractors: the day's spend is the ledger's, so a second
// extractor (another process, with the worker's ledger) sees what the
// first spent.
func TestLedgerAcrossExtractors(t *testing.T) {
	model := emptyModel(t, 10)
	ledger := NewMemoryLedger()
	cfg := testConfig(ProviderAnthropic, model.URL())
	cfg.Ledger = ledger
	cfg.Now = func() time.Time { return noon }
	d := testProject(t)
	if _, _, err := newExtractor(t, cfg).Extract(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	if got, _ := ledger.Spent(context.Background(), "2026-11-30"); got != 15 {
		t.Errorf("ledger spent = %d, want 15 (the fake's 10 in, 5 out)", got)
	}
	chunk := redact.New(redact.Options{}).String(d.Chunks(DefaultChunkTokens)[0].Text)
	need := request{System: systemPrompt, Messages: []message{{Role: "user", Text: relatedMessage(nil) + digestMessage(chunk, 1, 1)}}, MaxTokens: DefaultMaxOutputTokens}.estimate()
	cfg.MaxTokensPerDay = 15 + need - 1
	_, _, err := newExtractor(t, cfg).Extract(context.Background(), d)
	if !errors.Is(err, ErrBudget) {
		t.Errorf("second extractor: error %v, want ErrBudget", err)
	}
	cfg.MaxTokensPerDay = 15 + need
	if _, _, err := newExtractor(t, cfg).Extract(context.Background(), d); err != nil {
		t.Errorf("second extractor with room for one call: %v", err)
	}
}

func TestUserTurns(t *testing.T) {
	tests := []struct {
		script string
		want   int
	}{
		{"cwd: /x\n---\nassistant: hi\n", 0},
		{"cwd: /x\n---\nuser: /mcp\nuser: /clear\n", 0},
		{"cwd: /x\n---\nuser: /review the auth package\nuser: thanks\n", 2},
		{testScript, 2},
	}
	for _, tt := range tests {
		if got := UserTurns(scriptDigest(t, tt.script, "")); got != tt.want {
			t.Errorf("UserTurns(%q) = %d, want %d", tt.script, got, tt.want)
		}
	}
}

// TestOutputCleaned: what a model returns is redacted, its relative dates
// are made absolute as of the session's end, and names stay unique.
func TestOutputCleaned(t *testing.T) {
	reply := `[{"name":"deploy-freeze","description":"Deploys are frozen until next week","fact":"Frozen; the token ghp_8kL2mN9vQ4rT7xW1cB5zH3jF6pS0gA2eY4uI opens the gate.","type":"project","category":"decision","confidence":0.8,"why":"user"},` +
		`{"name":"deploy-freeze","description":"Another fact with the same name","fact":"f","type":"project","category":"decision","confidence":0.8}]`
	model := fakeapi.New(t, fakeapi.Reply{Text: reply}, fakeapi.Reply{Text: reply})
	x := newExtractor(t, testConfig(ProviderAnthropic, model.URL()))
	got0, _, err := x.Extract(context.Background(), testProject(t))
	if err != nil || len(got0) != 1 || got0[0].Name != "deploy-freeze" || !strings.HasPrefix(got0[0].Description, "Deploys are frozen") {
		t.Fatalf("Extract = %+v, %v; want the first deploy-freeze kept and the item reusing its name dropped", got0, err)
	}

	reply = strings.Replace(reply, `"name":"deploy-freeze","description":"Another`, `"name":"","description":"Another`, 1)
	model = fakeapi.New(t, fakeapi.Reply{Text: reply})
	x = newExtractor(t, testConfig(ProviderAnthropic, model.URL()))
	got, _, err := x.Extract(context.Background(), testProject(t))
	if err != nil || len(got) != 2 {
		t.Fatalf("Extract = %+v, %v", got, err)
	}
	if want := "Deploys are frozen until the week of 2026-11-23"; got[0].Description != want {
		t.Errorf("Description = %q, want %q (the session ended on 2026-11-20)", got[0].Description, want)
	}
	if strings.Contains(got[0].Fact, "ghp_") || !strings.Contains(got[0].Fact, "[REDACTED:github-token]") {
		t.Errorf("Fact = %q, want the token redacted", got[0].Fact)
	}
}

// TestWorkGate: a session is sent for the work it shows, not for its
// count of typed prompts: one prompt with an edit, a failure, an answer,
// a rejection or a run of tool calls is sent; one prompt of talk is not,
// and the error says what was counted.
func TestWorkGate(t *testing.T) {
	const talk = "cwd: /x\n---\nuser: What does the billing job do?\nassistant: It sends invoices.\n"
	tests := []struct {
		name   string
		script string
		sent   bool
	}{
		{"one prompt of talk", talk, false},
		{"a slash command and talk", "cwd: /x\n---\nuser: /mcp\nuser: hello\nassistant: hi\n", false},
		{"one prompt and an edit", "cwd: /x\n---\nuser: Fix the typo in CLAUDE.md.\ntool: Edit CLAUDE.md => ok\nassistant: Fixed.\n", true},
		{"one prompt and a failure", "cwd: /x\n---\nuser: Run the tests.\ntool: Bash go test ./... => error: --- FAIL: TestX\nassistant: It fails.\n", true},
		{"one prompt and an answer", "cwd: /x\n---\nuser: Set up linting.\n" +
			`tool: AskUserQuestion {"questions":[{"question":"Which linter?"}]} => ok: User has answered your questions: "Which linter?"="ruff". You can now continue.` + "\n", true},
		{"one prompt and a rejection", "cwd: /x\n---\nuser: Clean up.\n" +
			"tool: Bash rm -rf build => error: The user doesn't want to proceed with this tool use. The tool use was rejected. To tell you how to proceed, the user said:\n  keep build/\n", true},
		{"one prompt and five reads", "cwd: /x\n---\nuser: Where is the retry logic?\n" + strings.Repeat("tool: Read a.go => ok\n", 5) + "assistant: In a.go.\n", true},
		{"two prompts", testScript, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			model := emptyModel(t, 2)
			cfg := testConfig(ProviderAnthropic, model.URL())
			cfg.MinUserTurns = DefaultMinUserTurns
			_, _, err := newExtractor(t, cfg).Extract(context.Background(), scriptDigest(t, tt.script, ""))
			if got := len(model.Requests()) > 0; got != tt.sent {
				t.Errorf("sent = %v, want %v (err %v)", got, tt.sent, err)
			}
			if tt.sent {
				if err != nil {
					t.Errorf("Extract: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrTooShort) || !strings.Contains(err.Error(), "1 prompt") || !strings.Contains(err.Error(), "no edit") {
				t.Errorf("Extract error = %v, want ErrTooShort saying what was counted", err)
			}
		})
	}
}

// TestBudgetKeepsEnd: when a long session's chunks exceed the session's
// budget, its end (the last turns, the files and the failures) is sent
// first, and what is left out is its beginning.
func TestBudgetKeepsEnd(t *testing.T) {
	src := longScript(40) + "user: Last step: run the tests.\ntool: Bash go test ./billing/... => error: billing_test.go:12: total 80, want 90\nassistant: TODO: the rounding test still fails.\n"
	d := scriptDigest(t, src, "")
	per := 1000 + 200 + memory.EstimateTokens(systemPrompt) + 50 // a chunk, the output it allows, the prompt, framing
	script := make([]fakeapi.Reply, 10)
	for i := range script {
		script[i] = fakeapi.Reply{Text: "[]", InputTokens: per} // each call spends what it may
	}
	model := fakeapi.New(t, script...)
	cfg := testConfig(ProviderAnthropic, model.URL())
	cfg.ChunkTokens, cfg.MaxOutputTokens = 1000, 200
	n := len(d.Chunks(1000))
	cfg.MaxTokensPerSession = 2*per + per/2
	_, u, err := newExtractor(t, cfg).Extract(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	reqs := model.Requests()
	if len(reqs) < 1 || len(reqs) >= n || u.Skipped != n-len(reqs) {
		t.Fatalf("%d requests for %d chunks, %d skipped: want some chunks left out", len(reqs), n, u.Skipped)
	}
	sent := strings.Join(reqs, "\n")
	for _, want := range []string{"Last step: run the tests.", "billing_test.go:12: total 80, want 90", "## failures", "TODO: the rounding test still fails."} {
		if !strings.Contains(sent, want) {
			t.Errorf("the requests lack %q: the session's end was dropped", want)
		}
	}
	if strings.Contains(sent, "Step 1: ") {
		t.Errorf("the requests hold the first step, though chunks were left out: the beginning should go first")
	}
	if !strings.Contains(reqs[0], fmt.Sprintf("part %d of %d", n, n)) {
		t.Errorf("the first request is not the last part of %d", n)
	}
}

// TestRequests: what would be sent is what Extract sends, in its order.
func TestRequests(t *testing.T) {
	d := scriptDigest(t, longScript(40), "")
	cfg := testConfig(ProviderAnthropic, "http://127.0.0.1:1")
	cfg.ChunkTokens, cfg.MaxOutputTokens = 1000, 200
	reqs, err := Requests(context.Background(), cfg, d)
	if err != nil {
		t.Fatal(err)
	}
	model := emptyModel(t, len(reqs))
	cfg.BaseURL = model.URL()
	if _, _, err := newExtractor(t, cfg).Extract(context.Background(), d); err != nil {
		t.Fatal(err)
	}
	sent := model.Requests()
	if len(sent) != len(reqs) {
		t.Fatalf("Requests gave %d, Extract sent %d", len(reqs), len(sent))
	}
	for i, r := range reqs {
		if r.Part != len(reqs)-i || r.Parts != len(reqs) || r.System != systemPrompt || r.MaxTokens != 200 {
			t.Errorf("request %d = part %d of %d, max_tokens %d, want part %d of %d (the end first)", i, r.Part, r.Parts, r.MaxTokens, len(reqs)-i, len(reqs))
		}
		var body struct {
			Messages []struct {
				Content []struct{ Text string } `json:"content"`
			} `json:"messages"`
		}
		if err := json.Unmarshal([]byte(sent[i]), &body); err != nil || len(body.Messages) != 1 || body.Messages[0].Content[0].Text != r.User {
			t.Errorf("request %d: the user message sent differs from Requests' (%v)", i, err)
		}
	}
	cfg.MinUserTurns = 2
	if _, err := Requests(context.Background(), cfg, scriptDigest(t, "cwd: /x\n---\nuser: hi\n", "")); !errors.Is(err, ErrTooShort) {
		t.Errorf("Requests of a session of talk: %v, want ErrTooShort", err)
	}
}
