package extract

import (
	"testing"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
)

// TestRelationPlace: a relation gets the place of the memory the request
// listed; a name listed in two places (a project memory and a mounted
// vault's of the same name) is ambiguous, so the relation is taken as new.
func TestRelationPlace(t *testing.T) {
	known := knownMemories([]Related{
		{Name: "staging-db", Where: "project"},
		{Name: "staging-db", Where: "team"},
		{Name: "deploy-day", Where: "team"},
		{Name: "coupon-case", Where: "project"},
		{Name: "coupon-case", Where: "project"},
	})
	tests := []struct {
		memory, want string
		note         bool
	}{
		{"staging-db", "", true},
		{"deploy-day", "team", false},
		{"coupon-case", "project", false},
		{"never-listed", "", true},
	}
	for _, tt := range tests {
		c := Candidate{Relation: consolidate.RelationUpdate, Memory: tt.memory}
		note := checkRelation(&c, known)
		if c.Where != tt.want || (note != "") != tt.note {
			t.Errorf("%s: where %q, note %q; want where %q, a note: %v", tt.memory, c.Where, note, tt.want, tt.note)
		}
	}
}
