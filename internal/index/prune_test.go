package index

import (
	"context"
	"slices"
	"testing"
	"time"
)

// TestPruneHistory: at a fixed now, the injections of sessions idle past
// SessionLife go, whole sessions at a time; the recall statistics and
// verdicts of memories gone from a vault go once unchanged for
// OrphanLife; those of memories in the index, and of a vault with no
// memory in the index (a folder missing for a while), stay.
func TestPruneHistory(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)
	ago := func(d time.Duration) time.Time { return now.Add(-d) }
	dir := t.TempDir()
	writeFile(t, dir, "kept.md", memFile("kept", "still in the vault", "body"))
	db := mustOpen(t)
	if _, err := db.Sync(ctx, Source{"project", dir}, Source{"user", t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	p := func(name string) Key { return Key{"project", name} }
	u := func(name string) Key { return Key{"user", name} }
	for _, d := range []struct {
		at time.Time
		d  Delivery
	}{
		{ago(SessionLife + day), Delivery{Session: "idle", Injected: []Key{p("kept"), p("gone-old")}}},
		{ago(SessionLife + 10*day), Delivery{Session: "long", Injected: []Key{p("kept")}}},
		{ago(day), Delivery{Session: "long", Injected: []Key{p("gone-old")}}},
		{ago(SessionLife - day), Delivery{Session: "recent", Injected: []Key{p("kept")}}},
		{ago(OrphanLife + day), Delivery{Recalled: []Key{p("kept"), p("gone-old"), u("missing-vault")}}},
		{ago(OrphanLife - day), Delivery{Recalled: []Key{p("gone-recent")}}},
	} {
		if err := db.Record(ctx, d.at, d.d); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range []struct {
		at time.Time
		k  Key
	}{{ago(OrphanLife + day), p("kept")}, {ago(OrphanLife + day), p("gone-old")}, {ago(OrphanLife - day), p("gone-recent")}} {
		if err := db.SetVerdicts(ctx, v.at, Verdict{Key: v.k, State: "suspect"}); err != nil {
			t.Fatal(err)
		}
	}

	got, err := db.PruneHistory(ctx, now)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Pruned{Injections: 2, Recalls: 1, Verdicts: 1}); got != want {
		t.Errorf("PruneHistory = %+v, want %+v", got, want)
	}
	for _, tt := range []struct {
		session string
		want    []string
	}{
		{"idle", nil},
		{"long", []string{"gone-old", "kept"}},
		{"recent", []string{"kept"}},
	} {
		inj, err := db.Injected(ctx, tt.session)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for k := range inj {
			names = append(names, k.Name)
		}
		slices.Sort(names)
		if !slices.Equal(names, tt.want) {
			t.Errorf("Injected(%s) after pruning = %v, want %v", tt.session, names, tt.want)
		}
	}
	if got, want := recalled(t, db), []string{"project:gone-recent", "project:kept", "user:missing-vault"}; !slices.Equal(got, want) {
		t.Errorf("recall statistics after pruning = %v, want %v", got, want)
	}
	vs, err := db.Verdicts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var verdicts []string
	for k := range vs {
		verdicts = append(verdicts, k.String())
	}
	slices.Sort(verdicts)
	if want := []string{"project:gone-recent", "project:kept"}; !slices.Equal(verdicts, want) {
		t.Errorf("verdicts after pruning = %v, want %v", verdicts, want)
	}

	// Pruning again at the same time finds nothing.
	if got, err := db.PruneHistory(ctx, now); err != nil || got != (Pruned{}) {
		t.Errorf("second PruneHistory = %+v, %v; want nothing", got, err)
	}
}

// recalled lists the keys the recall statistics hold.
func recalled(t *testing.T, db *DB) []string {
	t.Helper()
	rows, err := db.sql.Query(`SELECT source || ':' || name FROM history.recall_stats ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			t.Fatal(err)
		}
		out = append(out, k)
	}
	return out
}
