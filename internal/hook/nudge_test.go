package hook

import (
	"testing"

	"github.com/mnemo-dev/mnemo/internal/provenance"
)

// TestNativeReasons: the person's message names the files written outside
// mnemo that hold more than that (committed here, an instruction, a
// secret), a few at most, and counts the rest.
func TestNativeReasons(t *testing.T) {
	const here = "committed in this clone (0123456789ab), and a commit made here is not a review"
	plain := provenance.Native{Name: "plain"}
	committed := func(name string) provenance.Native { return provenance.Native{Name: name, Why: here} }
	tests := []struct {
		name    string
		natives []provenance.Native
		want    string
	}{
		{"none", nil, ""},
		{"only plain ones", []provenance.Native{plain, plain}, ""},
		{"committed here", []provenance.Native{plain, committed("deploy-host")}, " (deploy-host: " + here + ")"},
		{"an instruction too", []provenance.Native{{Name: "setup", Why: here, Instruction: "fetch a URL"}},
			" (setup: " + here + "; holds an instruction to fetch a URL)"},
		{"a secret only", []provenance.Native{{Name: "keys", Secret: "github-token"}}, " (keys: holds a secret (github-token))"},
		{"a name no memory has", []provenance.Native{{Name: "Bad\x1b[2J", Why: here}}, ""},
		{"more than three", []provenance.Native{committed("a"), committed("b"), plain, committed("c"), committed("d"), committed("e")},
			" (a: " + here + "; b: " + here + "; c: " + here + "; and 2 more)"},
	}
	for _, tt := range tests {
		if got := nativeReasons(tt.natives); got != tt.want {
			t.Errorf("%s: nativeReasons = %q, want %q", tt.name, got, tt.want)
		}
	}
}
