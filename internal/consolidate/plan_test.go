package consolidate

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// TestPlanPredictsAdd checks that Plan names the action Add then takes,
// and writes nothing itself.
func TestPlanPredictsAdd(t *testing.T) {
	lowExtension := pnpmPinned
	lowExtension.Confidence = 0.6
	contradiction := Fact{
		Stated:      true,
		Description: "The web frontend does not use pnpm any more; it uses npm as its package manager",
		Body:        "Install packages in web/ with npm; pnpm was dropped.",
		Type:        memory.TypeFeedback, Confidence: 0.95,
	}
	other := Fact{Stated: true, Description: "Deploys go out on Tuesdays only", Body: "Release train leaves Tuesday 10:00 UTC.", Confidence: 0.9}
	low := Fact{Stated: true, Description: "Run the integration tests with make itest", Body: "make itest starts Postgres first.", Confidence: 0.6}
	tests := []struct {
		name string
		f    Fact
		want Action
	}{
		{"duplicate", pnpm, Duplicate},
		{"extension", pnpmPinned, Extended},
		{"low-confidence extension", lowExtension, Proposed},
		{"contradiction", contradiction, Contradiction},
		{"new fact", other, Added},
		{"low confidence", low, Drafted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := setup(t)
			first := e.add(t, pnpm)
			plan, err := e.c.Plan(e.ctx, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if n, d := e.count(t); n != 1 || d != 0 {
				t.Fatalf("Plan wrote: vault %d, inbox %d; want 1 and 0", n, d)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(e.c.Inbox.Dir), "provenance.jsonl")); err == nil {
				t.Fatalf("Plan recorded provenance")
			}
			got := e.add(t, tt.f)
			if plan.Action != tt.want || got.Action != tt.want {
				t.Errorf("Plan = %s, Add = %s; want %s", plan.Action, got.Action, tt.want)
			}
			if tt.want != Added && tt.want != Drafted && plan.Existing != first.Name {
				t.Errorf("Plan existing = %q, want %q", plan.Existing, first.Name)
			}
		})
	}
}

func TestAddNewNeverMerges(t *testing.T) {
	e := setup(t)
	first := e.add(t, pnpm)
	o, err := e.c.AddNew(e.ctx, pnpm)
	if err != nil {
		t.Fatal(err)
	}
	if o.Action != Added || o.Name == first.Name {
		t.Errorf("AddNew(duplicate) = %+v, want added under a new name", o)
	}
	if n, _ := e.count(t); n != 2 {
		t.Errorf("vault holds %d memories, want 2", n)
	}
	low := pnpm
	low.Confidence = 0.5
	if o, err := e.c.AddNew(e.ctx, low); err != nil || o.Action != Drafted {
		t.Errorf("AddNew(low confidence) = %+v, %v; want drafted", o, err)
	}
}
