package recall

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
)

var now = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// TestRankingOrder lists, for each query, memories from best to worst; each
// must rank strictly above the next.
func TestRankingOrder(t *testing.T) {
	tests := []struct {
		name  string
		mems  []mem
		q     Query
		order []string
	}{
		{
			name: "anchored to the edited file outranks a shared word",
			mems: []mem{
				{"login-flow", "How the login form posts credentials", "The login page posts to /session.", ""},
				{"auth-service", "Token checks live in the auth service", "Never call the database from here.",
					"anchors:\n  files:\n    - path: internal/auth/service.go\n      sha256: 0123456789abcdef\n"},
			},
			q:     Query{Text: "fix the login bug", Files: []string{"internal/auth/service.go"}},
			order: []string{"auth-service", "login-flow"},
		},
		{
			name: "anchored to the file outranks anchored to its folder",
			mems: []mem{
				{"folder-mate", "Handler conventions", "x", "anchors:\n  files:\n    - path: internal/auth/handler.go\n"},
				{"same-file", "Service conventions", "x", "anchors:\n  files:\n    - path: internal/auth/service.go\n"},
				{"elsewhere", "Billing conventions", "x", "anchors:\n  files:\n    - path: internal/billing/api.go\n"},
			},
			q:     Query{Text: "conventions", Files: []string{"internal/auth/service.go"}},
			order: []string{"same-file", "folder-mate", "elsewhere"},
		},
		{
			name: "written on the day the query names outranks the same words written later",
			mems: []mem{
				{"notes-a", "The release slipped at standup", "x", "created: 2026-06-12T09:00:00Z\n"},
				{"notes-b", "The release slipped at standup", "x", "created: 2026-05-08T09:00:00Z\n"},
			},
			q:     Query{Text: "what slipped at standup on 8 May, 2026?"},
			order: []string{"notes-b", "notes-a"},
		},
		{
			name: "updated in the month the query names outranks the same words updated in another",
			mems: []mem{
				{"plan-a", "Quarterly plan for the billing team", "x", "created: 2026-01-05T09:00:00Z\nupdated: 2026-02-01T09:00:00Z\n"},
				{"plan-b", "Quarterly plan for the billing team", "x", "created: 2026-01-05T09:00:00Z\nupdated: 2026-03-20T09:00:00Z\n"},
				{"plan-0", "Quarterly plan for the billing team", "x", "created: 2025-03-02T09:00:00Z\n"},
			},
			q:     Query{Text: "billing plan as of 2026-03"},
			order: []string{"plan-b", "plan-0"},
		},
		{
			name: "a month named alone holds in any year, a few days after it too",
			mems: []mem{
				{"trip-a", "Offsite trip to the coast", "x", "created: 2026-08-10T09:00:00Z\n"},
				{"trip-b", "Offsite trip to the coast", "x", "created: 2025-07-02T09:00:00Z\n"},
			},
			q:     Query{Text: "the offsite trip in June"},
			order: []string{"trip-b", "trip-a"},
		},
		{
			name: "description outranks body",
			mems: []mem{
				{"in-body", "Deploy checklist", "Remember the postgres migration before deploying.", ""},
				{"in-description", "Postgres migrations run before deploy", "Run them by hand.", ""},
			},
			q:     Query{Text: "postgres"},
			order: []string{"in-description", "in-body"},
		},
		{
			name: "stemming matches other forms",
			mems: []mem{
				{"caching", "Responses are cached for ten minutes", "x", ""},
				{"unrelated", "The build uses make", "x", ""},
			},
			q:     Query{Text: "caches"},
			order: []string{"caching"},
		},
		{
			name: "superseded and suspect are pushed down",
			mems: []mem{
				{"old-way", "Use the retry helper for HTTP calls", "x", "status: superseded\nsuperseded_by: new-way\n"},
				{"new-way", "Use the retry helper for HTTP calls", "x", ""},
				{"stale-way", "Use the retry helper for HTTP calls", "x", ""},
			},
			q:     Query{Text: "retry helper HTTP"},
			order: []string{"new-way", "stale-way", "old-way"},
		},
		{
			name: "feedback outranks project at equal text",
			mems: []mem{
				{"as-project", "Always run gofmt before committing", "x", ""},
				{"as-feedback", "Always run gofmt before committing", "x", "type: feedback\n"},
			},
			q:     Query{Text: "gofmt"},
			order: []string{"as-feedback", "as-project"},
		},
		{
			name: "recent outranks old at equal text",
			mems: []mem{
				{"old", "Cache keys include the tenant", "x", "updated: 2024-01-01T00:00:00Z\n"},
				{"new", "Cache keys include the tenant", "x", "updated: 2026-11-20T00:00:00Z\n"},
			},
			q:     Query{Text: "cache tenant", Now: now},
			order: []string{"new", "old"},
		},
		{
			name: "low confidence ranks below high",
			mems: []mem{
				{"unsure", "Staging uses port 8443", "x", "confidence: 0.3\n"},
				{"sure", "Staging uses port 8443", "x", "confidence: 0.95\n"},
			},
			q:     Query{Text: "staging port"},
			order: []string{"sure", "unsure"},
		},
		{
			name: "a linked memory comes in behind the one that matched",
			mems: []mem{
				{"matched", "Billing webhooks are idempotent", "See [[neighbour]].", ""},
				{"neighbour", "Stripe retries failed deliveries for three days", "x", ""},
				{"unlinked", "Nothing to do with it", "x", ""},
			},
			q:     Query{Text: "billing webhooks"},
			order: []string{"matched", "neighbour"},
		},
		{
			name: "identifier substrings are found",
			mems: []mem{
				{"svc", "UserService must not import billing", "x", ""},
				{"other", "Users sign in with SSO", "x", ""},
			},
			q:     Query{Text: "UserServ"},
			order: []string{"svc"},
		},
		{
			name: "text without spaces is found",
			mems: []mem{
				{"jp", "認証サービスはinternal/authに移動した", "x", ""},
				{"en", "Authentication moved", "x", ""},
			},
			q:     Query{Text: "認証サービスの場所"},
			order: []string{"jp"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.Suspect = func(k index.Key) (string, bool) {
				return "internal/x.go changed", k.Name == "stale-way"
			}
			e, _ := engine(t, cfg, tt.mems...)
			rs, err := e.Recall(context.Background(), tt.q)
			if err != nil {
				t.Fatal(err)
			}
			got := resultNames(rs)
			if len(got) < len(tt.order) || !slices.Equal(got[:len(tt.order)], tt.order) {
				t.Fatalf("Recall(%q) = %v, want %v first", tt.q.Text, explain(rs), tt.order)
			}
			for i := 1; i < len(tt.order); i++ {
				if rs[i].Score >= rs[i-1].Score {
					t.Errorf("%s scores %g, not strictly below %s at %g", rs[i].Name, rs[i].Score, rs[i-1].Name, rs[i-1].Score)
				}
			}
		})
	}
}

// explain prints results with their score parts, for failure messages.
func explain(rs []Result) string {
	var b strings.Builder
	for _, r := range rs {
		b.WriteString("\n  " + r.Name + " " + strings.TrimSpace(formatWhy(r)))
	}
	return b.String()
}

func formatWhy(r Result) string {
	s := fmt.Sprintf("score=%.4f", r.Score)
	for _, p := range append(r.Why.Relevance, r.Why.Boosts...) {
		s += fmt.Sprintf(" %s=%.4g(%s)", p.Name, p.Value, p.Detail)
	}
	return s
}

func TestRecallTiesBreakByName(t *testing.T) {
	e, _ := engine(t, DefaultConfig(),
		mem{"charlie", "Same words here", "x", ""},
		mem{"alpha", "Same words here", "x", ""},
		mem{"bravo", "Same words here", "x", ""},
	)
	for range 5 {
		rs, err := e.Recall(context.Background(), Query{Text: "same words"})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := resultNames(rs), []string{"alpha", "bravo", "charlie"}; !slices.Equal(got, want) {
			t.Fatalf("Recall = %v, want %v", got, want)
		}
	}
}

func TestRecallFiltersAndExplains(t *testing.T) {
	e, _ := engine(t, DefaultConfig(),
		mem{"a-user", "Prefers tabs over spaces", "tabs", "type: user\n"},
		mem{"a-project", "Tabs in Makefiles", "tabs", ""},
		mem{"linked", "Unrelated words", "x", ""},
		mem{"linker", "Tabs everywhere", "See [[linked]].", ""},
	)
	ctx := context.Background()
	rs, err := e.Recall(ctx, Query{Text: "tabs", Types: []memory.Type{memory.TypeUser}})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := resultNames(rs), []string{"a-user"}; !slices.Equal(got, want) {
		t.Errorf("Recall(types user) = %v, want %v", got, want)
	}
	rs, err = e.Recall(ctx, Query{Text: "tabs", Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 2 {
		t.Fatalf("Recall(limit 2) returned %d results", len(rs))
	}
	if got := rs[0].Why.Terms; !slices.Equal(got, []string{"tabs"}) {
		t.Errorf("Why.Terms = %v, want [tabs]", got)
	}
	if len(rs[0].Why.Relevance) == 0 || rs[0].Why.Relevance[0].Name != "words" {
		t.Errorf("Why.Relevance = %v, want a words part first", rs[0].Why.Relevance)
	}
	rs, _ = e.Recall(ctx, Query{Text: "tabs everywhere"})
	for _, r := range rs {
		if r.Name == "linked" {
			if p := r.Why.Relevance; len(p) != 1 || p[0].Name != "link" || p[0].Detail != "from linker" {
				t.Errorf("linked: Why.Relevance = %v, want one link part from linker", p)
			}
			return
		}
	}
	t.Errorf("Recall(tabs everywhere) = %v, want linked among them", resultNames(rs))
}

// FuzzRecall checks that no query text produces an error: the terms and
// substrings it yields run as real MATCH queries.
func FuzzRecall(f *testing.F) {
	e, _ := engine(f, DefaultConfig(),
		mem{"a", "Authentication lives in internal/auth", "UserService. [[b]]", ""},
		mem{"b", "認証サービス", "日本語のテキスト", ""},
	)
	for _, s := range []string{"", `"`, `"a" OR "b"`, "NEAR(a b, 3)", "auth*", "^start", "name:x", "(((", "a AND NOT b",
		"認証サービスの場所", "\x00", "\xff\xfe", "col1 : col2", "internal/auth/service.go", strings.Repeat("word ", 200)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if _, err := e.Recall(context.Background(), Query{Text: text, Files: []string{text}, Limit: 3}); err != nil {
			t.Errorf("Recall(%q): %v", text, err)
		}
	})
}

func TestRecallHugeQuery(t *testing.T) {
	e, _ := engine(t, DefaultConfig(), mem{"a", "Authentication lives in internal/auth", "x", ""})
	var b strings.Builder
	for b.Len() < 100<<10 {
		b.WriteString(`auth "quoted" OR NEAR(x) * ^ : ( ) 認証サービス UserService internal/auth `)
	}
	start := time.Now()
	rs, err := e.Recall(context.Background(), Query{Text: b.String()})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) == 0 || rs[0].Name != "a" {
		t.Errorf("Recall(100 KB) = %v, want a", resultNames(rs))
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Recall(100 KB) took %v", d)
	}
}
