package worker

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/extract"
	"github.com/mnemo-dev/mnemo/internal/fakeapi"
	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/queue"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// relatedExtractor is the anthropic extractor against a fake model, whose
// requests name the memories [Related] finds in p.
func relatedExtractor(t *testing.T, model *fakeapi.Model, p *project) Extractor {
	t.Helper()
	cfg := extract.DefaultConfig(func(string) string { return "" })
	cfg.Provider, cfg.APIKey, cfg.BaseURL, cfg.Backoff = extract.ProviderAnthropic, "sk-ant-test", model.URL(), time.Millisecond
	cfg.Related = func(ctx context.Context, d *transcript.Digest) ([]extract.Related, error) {
		db, err := index.Open(ctx, filepath.Join(p.state, index.FileName), nil)
		if err != nil {
			return nil, err
		}
		defer db.Close()
		if _, err := db.Sync(ctx, index.Source{Name: "project", Dir: filepath.Join(p.root, ".memory")}, index.Source{Name: "user", Dir: p.user}); err != nil {
			return nil, err
		}
		in, err := consolidate.OpenInbox(p.state)
		if err != nil {
			return nil, err
		}
		return Related(ctx, db, in, d)
	}
	x, err := extract.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return FromExtract(x)
}

// remember writes a memory into p's project vault.
func (p *project) remember(t *testing.T, name, desc, body string) {
	t.Helper()
	m := memory.New(memory.Header{Name: name, Description: desc, Type: memory.TypeProject, Source: "manual", Confidence: 1,
		Created: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)}, body)
	if err := os.WriteFile(filepath.Join(p.root, ".memory", name+".md"), m.Render(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// draft puts a draft in p's inbox.
func (p *project) draft(t *testing.T, name, desc, body string) {
	t.Helper()
	in, err := consolidate.OpenInbox(p.state)
	if err != nil {
		t.Fatal(err)
	}
	m := memory.New(memory.Header{Name: name, Description: desc, Type: memory.TypeProject, Source: "session:old", Confidence: 0.6,
		Created: time.Date(2026, 11, 2, 0, 0, 0, 0, time.UTC)}, body)
	if err := in.Put(m); err != nil {
		t.Fatal(err)
	}
}

// TestRequestNamesRelatedMemories: the model is shown the memories and the
// drafts the session relates to, by name and description, and not the
// unrelated ones.
func TestRequestNamesRelatedMemories(t *testing.T) {
	p := newProject(t)
	p.remember(t, "coupon-lookup", "Coupon codes are looked up in internal/cart/coupon.go", "The lookup is a map keyed by code.")
	p.remember(t, "invoice-rounding", "Invoices round half to even", "Banker's rounding, as accounting asked.")
	p.draft(t, "coupon-expiry", "Coupon codes expire after 30 days", "The expiry is checked at checkout.")
	model := fakeapi.New(t, fakeapi.Reply{Text: "[]"})
	j := runJob(t, p, relatedExtractor(t, model, p), "s", filepath.Join(evidence, "title.jsonl"))
	if j.State != "done" || j.Skipped != "" {
		t.Fatalf("job = %+v, want done and sent", j)
	}
	reqs := model.Requests()
	if len(reqs) != 1 {
		t.Fatalf("the model got %d requests, want 1", len(reqs))
	}
	for _, w := range []string{
		"coupon-lookup (project, project): Coupon codes are looked up in internal/cart/coupon.go",
		"coupon-expiry (draft, project): Coupon codes expire after 30 days",
	} {
		if !strings.Contains(reqs[0], w) {
			t.Errorf("the request lacks %q:\n%s", w, reqs[0])
		}
	}
	if strings.Contains(reqs[0], "invoice-rounding") {
		t.Errorf("the request names an unrelated memory")
	}
}

// TestModelRelationApplied: what the model says of a candidate and a
// memory it was shown is applied by consolidation, within its value rules.
func TestModelRelationApplied(t *testing.T) {
	const memoryText = "Coupon codes are matched case-insensitively"
	item := func(desc, fact, relation string) string {
		return `[{"name":"coupon-case","description":"` + desc + `","fact":"` + fact + `","type":"project","category":"convention",` +
			`"files":[],"confidence":0.7,"why":"turn 1","evidence":"inferred","from_tool_output":false,"relation":"` + relation + `","memory":"coupon-codes-case"}]`
	}
	tests := []struct {
		name  string
		reply string
		want  consolidate.Action
	}{
		{"same: a paraphrase is a duplicate", item("Case does not matter when a shopper types a coupon", "Lookups lower-case the code first.", "same"), consolidate.Duplicate},
		{"update: proposed as a change", item("Coupon entry now also strips spaces typed by shoppers", "Since the checkout change, codes are trimmed as well as lower-cased.", "update"), consolidate.Proposed},
		{"contradicts: a linked draft", item("Coupon codes must be matched case-sensitively", "Upper and lower case codes are different coupons.", "contradicts"), consolidate.Contradiction},
		// A model's "same" merges a rewording, not another fact on the
		// same subject: the candidate would be lost.
		{"same, another fact about coupons: new", item("A coupon code can be used once per shopper", "The second use of one code is refused at checkout.", "same"), consolidate.Drafted},
		{"same, another rule for the codes: new", item("Coupon codes are printed on the receipt", "Receipts show the code that was applied.", "same"), consolidate.Drafted},
		{"same, of a name never sent: new", strings.Replace(item("Case does not matter when a shopper types a coupon", "Lookups lower-case the code first.", "same"), `"memory":"coupon-codes-case"`, `"memory":"made-up"`, 1), consolidate.Drafted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newProject(t)
			p.remember(t, "coupon-codes-case", memoryText, "Coupon codes are lower-cased before the lookup.")
			model := fakeapi.New(t, fakeapi.Reply{Text: tt.reply})
			var got []consolidate.Outcome
			x := relatedExtractor(t, model, p)
			pl := p.pipeline(x)
			pl.OnOutcome = func(_ queue.Job, o consolidate.Outcome) { got = append(got, o) }
			runPipeline(t, p, pl, filepath.Join(evidence, "title.jsonl"))
			if len(got) != 1 || got[0].Action != tt.want {
				t.Fatalf("outcomes = %+v, want one %s", got, tt.want)
			}
			if tt.want != consolidate.Drafted && got[0].Existing != "coupon-codes-case" {
				t.Errorf("outcome = %+v, want it set against coupon-codes-case", got[0])
			}
			path := filepath.Join(p.root, ".memory", "coupon-codes-case.md")
			data, _ := os.ReadFile(path)
			if m, err := memory.Parse(path, data); err != nil || m.Description != memoryText {
				t.Errorf("the memory changed: %v %+v", err, m)
			}
		})
	}
}

// runPipeline queues path and runs a worker with pl over it.
func runPipeline(t *testing.T, p *project, pl *Pipeline, path string) []queue.Job {
	t.Helper()
	ctx := context.Background()
	if _, err := p.q.Enqueue(ctx, queue.Job{Session: "s", Transcript: path, Event: "session-end"}); err != nil {
		t.Fatal(err)
	}
	w := &Worker{StateDir: p.state, Queue: p.q, Process: pl.Process, Log: pl.Log, Now: time.Now, Lease: time.Minute, Poll: 20 * time.Millisecond}
	if err := w.Run(ctx); err != nil {
		t.Fatal(err)
	}
	jobs, _ := p.q.List(ctx)
	return jobs
}
