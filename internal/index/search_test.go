package index

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// fixture indexes a small vault and returns the index.
func fixture(t testing.TB) *DB {
	t.Helper()
	db := mustOpen(t)
	dir := t.TempDir()
	writeFile(t, dir, "auth-moved.md", memFile("auth-moved",
		"Authentication lives in internal/auth since 2026-09",
		"UserService must not import billing. See [[billing-boundary]].",
		"anchors:\n  files:\n    - path: internal/auth/service.go\n      sha256: 3a7b9c0d12ef4455"))
	writeFile(t, dir, "billing-boundary.md", memFile("billing-boundary",
		"Billing code stays behind the billing package API",
		"Nothing outside billing imports its internals."))
	writeFile(t, dir, "user-prefs.md", "---\nname: user-prefs\ndescription: Prefers small pull requests\ntype: user\n---\nKeep PRs small; mentions authentication once.\n")
	writeFile(t, dir, "cjk.md", memFile("cjk", "認証サービスの移動について", "認証はinternal/authに移動した。"))
	if _, err := db.Sync(context.Background(), Source{"project", dir}); err != nil {
		t.Fatal(err)
	}
	return db
}

func TestSearchOrder(t *testing.T) {
	ctx := context.Background()
	db := fixture(t)
	tests := []struct {
		name  string
		terms []string
		f     Filter
		want  []string
	}{
		{"stemmed", []string{"authenticating"}, Filter{}, []string{"auth-moved", "user-prefs"}},
		{"description outweighs body", []string{"billing"}, Filter{}, []string{"billing-boundary", "auth-moved"}},
		{"type filter", []string{"authentication"}, Filter{Types: []memory.Type{memory.TypeUser}}, []string{"user-prefs"}},
		{"anchored path words", []string{"service.go"}, Filter{}, []string{"auth-moved"}},
		{"operators are words", []string{"billing OR", "NEAR(", "*", `"`}, Filter{}, []string{"billing-boundary", "auth-moved"}},
		{"only operators", []string{"OR", "NEAR(", "*", `"`, "AND"}, Filter{}, nil},
		{"empty", nil, Filter{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := db.Search(ctx, WordQuery{Terms: tt.terms, Weights: defaultWeights, Filter: tt.f, Limit: 10})
			if err != nil {
				t.Fatalf("Search(%q): %v", tt.terms, err)
			}
			if got := names(t, db, res.Hits); !slices.Equal(got, tt.want) {
				t.Errorf("Search(%q) = %v, want %v", tt.terms, got, tt.want)
			}
		})
	}
}

func TestSearchSubstrings(t *testing.T) {
	ctx := context.Background()
	db := fixture(t)
	tests := []struct {
		subs []string
		want []string
	}{
		{[]string{"UserServ"}, []string{"auth-moved"}}, // an identifier in a body
		{[]string{"th/servi"}, []string{"auth-moved"}}, // an anchored path
		{[]string{"thenticat"}, nil},                   // plain words are for the word index
		{[]string{"認証サ"}, []string{"cjk"}},
		{[]string{"認証"}, nil}, // under three characters
		{[]string{`a"b`, "))"}, nil},
	}
	for _, tt := range tests {
		hits, err := db.SearchSubstrings(ctx, tt.subs, Filter{}, 10)
		if err != nil {
			t.Fatalf("SearchSubstrings(%q): %v", tt.subs, err)
		}
		if got := names(t, db, hits); !slices.Equal(got, tt.want) {
			t.Errorf("SearchSubstrings(%q) = %v, want %v", tt.subs, got, tt.want)
		}
	}
}

func TestAnchoredAndLinks(t *testing.T) {
	ctx := context.Background()
	db := fixture(t)
	ids, err := db.Lookup(ctx, []Key{{"project", "auth-moved"}, {"project", "billing-boundary"}})
	if err != nil {
		t.Fatal(err)
	}
	auth, billing := ids[Key{"project", "auth-moved"}], ids[Key{"project", "billing-boundary"}]
	tests := []struct {
		path string
		want []FileHit
	}{
		{"internal/auth/service.go", []FileHit{{auth, "internal/auth/service.go", true}}},
		{"internal/auth/handler.go", []FileHit{{auth, "internal/auth/service.go", false}}},
		{"internal/billing/x.go", nil},
	}
	for _, tt := range tests {
		got, err := db.Anchored(ctx, []string{tt.path}, Filter{})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("Anchored(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
	for _, id := range []int64{auth, billing} {
		got, err := db.Links(ctx, []int64{id})
		if err != nil {
			t.Fatal(err)
		}
		if want := []Link{{auth, billing}}; !slices.Equal(got, want) {
			t.Errorf("Links(%d) = %v, want %v", id, got, want)
		}
	}
}

func TestRecallStatsAndInjections(t *testing.T) {
	ctx := context.Background()
	db := fixture(t)
	k := Key{"project", "auth-moved"}
	t0 := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	for i := range 3 {
		if err := db.RecordRecall(ctx, t0.Add(time.Duration(i)*time.Hour), k); err != nil {
			t.Fatal(err)
		}
	}
	ids, _ := db.Lookup(ctx, []Key{k})
	docs, err := db.Docs(ctx, []int64{ids[k]})
	if err != nil || len(docs) != 1 {
		t.Fatalf("Docs = %v, %v", docs, err)
	}
	if got, want := docs[0].Recalls, 3; got != want {
		t.Errorf("Recalls = %d, want %d", got, want)
	}
	if got, want := docs[0].LastRecalled, t0.Add(2*time.Hour); !got.Equal(want) {
		t.Errorf("LastRecalled = %v, want %v", got, want)
	}
	if got, want := docs[0].Files, []string{"internal/auth/service.go"}; !slices.Equal(got, want) {
		t.Errorf("Files = %v, want %v", got, want)
	}

	if ok, err := db.WasInjected(ctx, "s1", k); err != nil || ok {
		t.Errorf("WasInjected before = %v, %v; want false", ok, err)
	}
	if err := db.RecordInjection(ctx, "s1", t0, k); err != nil {
		t.Fatal(err)
	}
	if err := db.RecordInjection(ctx, "s1", t0.Add(time.Hour), k); err != nil {
		t.Fatal(err)
	}
	if ok, err := db.WasInjected(ctx, "s1", k); err != nil || !ok {
		t.Errorf("WasInjected after = %v, %v; want true", ok, err)
	}
	if ok, _ := db.WasInjected(ctx, "s2", k); ok {
		t.Errorf("WasInjected(other session) = true, want false")
	}
	got, err := db.Injected(ctx, "s1")
	if err != nil || len(got) != 1 || !got[k].Equal(t0) {
		t.Errorf("Injected = %v, %v; want %s at %v", got, err, k, t0)
	}
}

// FuzzSearch checks that no term, however odd, is read as FTS5 syntax:
// the MATCH runs on a real index and must not fail.
func FuzzSearch(f *testing.F) {
	db := fixture(f)
	for _, seed := range []string{"", `"`, `""`, "a OR b", "NEAR(a b)", "*", "^x", "col:x", "(a", "x AND NOT y",
		"認証", "\x00", "-- drop", "'; DROP TABLE memories; --", "\u0000\uffff"} {
		f.Add(seed, seed+" more")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		ctx := context.Background()
		if _, err := db.Search(ctx, WordQuery{Terms: []string{a, b}, Weights: defaultWeights, Limit: 5, CommonDocs: 1}); err != nil {
			t.Errorf("Search(%q, %q): %v", a, b, err)
		}
		if _, err := db.SearchSubstrings(ctx, []string{a, b}, Filter{}, 5); err != nil {
			t.Errorf("SearchSubstrings(%q, %q): %v", a, b, err)
		}
	})
}

func TestSearchDropsCommonWords(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	dir := t.TempDir()
	for i := range 10 {
		body := "common words everywhere"
		if i == 3 {
			body += " and one rare zebra"
		}
		writeFile(t, dir, fmt.Sprintf("m%d.md", i), memFile(fmt.Sprintf("m%d", i), "memory", body))
	}
	if _, err := db.Sync(ctx, Source{"project", dir}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		docs    int
		share   float64
		hits    int
		dropped []string
	}{
		{0, 0, 10, nil},
		{100, 0, 10, nil},
		{0, 3, 10, nil},
		{11, 0, 10, []string{"everywher"}},
		{5, 0.2, 1, []string{"common", "everywher"}},
		{1, 0, 1, []string{"common", "everywher"}},
	}
	for _, tt := range tests {
		res, err := db.Search(ctx, WordQuery{Terms: []string{"common zebra everywhere"}, Weights: defaultWeights,
			Limit: 20, CommonDocs: tt.docs, CommonShare: tt.share})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) != tt.hits || !slices.Equal(res.Dropped, tt.dropped) {
			t.Errorf("Search(common %d, %g) = %d hits, dropped %q; want %d, %q", tt.docs, tt.share, len(res.Hits), res.Dropped, tt.hits, tt.dropped)
		}
		if got := res.Hits[0].Stems; !slices.Contains(got, "zebra") {
			t.Errorf("Search(common %d, %g): best hit holds %q, want zebra among them", tt.docs, tt.share, got)
		}
	}
	// Every word common: the rarest is kept (here a tie: the first).
	res, err := db.Search(ctx, WordQuery{Terms: []string{"everywhere common"}, Weights: defaultWeights, Limit: 20, CommonDocs: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 10 || !slices.Equal(res.Dropped, []string{"everywher"}) {
		t.Errorf("Search(all common) = %d hits, dropped %q; want 10, [everywher]", len(res.Hits), res.Dropped)
	}
}
