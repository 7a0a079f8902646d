package index

import (
	"context"
	"testing"
	"time"
)

// TestVerdicts: SetVerdicts keeps the time a memory entered its state while
// the state holds; Suspects returns the suspect ones only.
func TestVerdicts(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	k := func(name string) Key { return Key{Source: "project", Name: name} }
	err := db.SetVerdicts(ctx, t0,
		Verdict{Key: k("a"), State: "fresh"},
		Verdict{Key: k("b"), State: "suspect", Reasons: []string{"x.go changed", "y.go deleted"}},
		Verdict{Key: k("c"), State: "unverifiable"})
	if err != nil {
		t.Fatal(err)
	}
	t1 := t0.Add(48 * time.Hour)
	if err := db.SetVerdicts(ctx, t1, Verdict{Key: k("b"), State: "suspect", Reasons: []string{"x.go changed"}},
		Verdict{Key: k("a"), State: "suspect", Reasons: []string{"z.go changed"}}); err != nil {
		t.Fatal(err)
	}
	all, err := db.Verdicts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 3 || !all[k("b")].Since.Equal(t0) || !all[k("b")].Checked.Equal(t1) || !all[k("a")].Since.Equal(t1) {
		t.Errorf("Verdicts = %+v", all)
	}
	sus, err := db.Suspects(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(sus) != 2 || sus[k("c")].State != "" || len(sus[k("b")].Reasons) != 1 || sus[k("a")].State != "suspect" {
		t.Errorf("Suspects = %+v, want a and b", sus)
	}
}

// TestHashCacheIdentsOfOneHead: the identifier lookups are kept for the
// commit of the last verification only, so that the cache does not grow
// with every commit verified; the file hashes stay.
func TestHashCacheIdentsOfOneHead(t *testing.T) {
	ctx := context.Background()
	db := mustOpen(t)
	for _, head := range []string{"aaaa", "bbbb"} {
		c, err := db.HashCache(ctx)
		if err != nil {
			t.Fatal(err)
		}
		c.PutIdent("Verify", head, true)
		c.PutIdent("Gone", head, false)
		c.PutHash("x.go", 10, 20, "h-"+head)
		if err := c.Save(ctx); err != nil {
			t.Fatal(err)
		}
	}
	c, err := db.HashCache(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		ident, head string
		found, ok   bool
	}{
		{"Verify", "aaaa", false, false},
		{"Gone", "aaaa", false, false},
		{"Verify", "bbbb", true, true},
		{"Gone", "bbbb", false, true},
	} {
		if found, ok := c.Ident(tt.ident, tt.head); found != tt.found || ok != tt.ok {
			t.Errorf("Ident(%s, %s) = %v, %v; want %v, %v", tt.ident, tt.head, found, ok, tt.found, tt.ok)
		}
	}
	if h, ok := c.Hash("x.go", 10, 20); !ok || h != "h-bbbb" {
		t.Errorf("Hash(x.go) = %q, %v; want h-bbbb, true", h, ok)
	}
	var rows int
	if err := db.sql.QueryRow(`SELECT count(*) FROM ident_cache`).Scan(&rows); err != nil || rows != 2 {
		t.Errorf("ident_cache rows = %d, %v; want 2", rows, err)
	}
}
