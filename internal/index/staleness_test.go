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
