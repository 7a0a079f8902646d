package consolidate

import "testing"

func TestSameFact(t *testing.T) {
	tests := []struct {
		kind, a, b string
		want       bool
	}{
		{"reworded punctuation", "Deploy with make deploy from a clean tree\nRun `make deploy` from a clean tree; the old scripts/deploy.sh is gone.",
			"Deploy with make deploy, from a clean tree\nRun `make deploy` from a clean tree; the old scripts/deploy.sh is gone now.", true},
		{"other value", "Staging database host is db-staging.internal on port 5432",
			"Staging database host is db-staging.internal on port 5433", false},
		{"other topic", "Deploy with make deploy from a clean tree", "The response cache lives five minutes", false},
	}
	for _, tt := range tests {
		if got := SameFact(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: SameFact = %v, want %v", tt.kind, got, tt.want)
		}
	}
}
