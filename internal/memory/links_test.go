package memory

import (
	"slices"
	"strings"
	"testing"
)

func TestLinks(t *testing.T) {
	tests := []struct {
		name, body string
		want       []string
	}{
		{"none", "plain text", nil},
		{"one", "See [[billing-boundary]].", []string{"billing-boundary"}},
		{"order and once", "[[b]] then [[a]] and [[b]] again", []string{"b", "a"}},
		{"alias and section", "[[a|the a memory]] [[b#why]]", []string{"a", "b"}},
		{"spaces trimmed", "[[ a ]]", []string{"a"}},
		{"inline code", "`[[not-a-link]]` but [[yes]]", []string{"yes"}},
		{"fence", "```\n[[in-code]]\n```\n[[after]]\n", []string{"after"}},
		{"tilde fence", "~~~go\n[[in-code]]\n~~~\n", nil},
		{"unclosed fence hides rest", "```\n[[x]]\n", nil},
		{"empty", "[[]] [[ ]]", nil},
		{"nested brackets", "[[[x]]]", []string{"x"}},
		{"across lines", "[[a\nb]]", nil},
		{"unicode", "[[café-notes]]", []string{"café-notes"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Links(tt.body); !slices.Equal(got, tt.want) {
				t.Errorf("Links(%q) = %q, want %q", tt.body, got, tt.want)
			}
		})
	}
}

func FuzzLinks(f *testing.F) {
	f.Add("See [[billing-boundary]] and `[[code]]`.\n```\n[[x]]\n```\n[[a|b]]")
	f.Fuzz(func(t *testing.T, body string) {
		seen := map[string]bool{}
		for _, l := range Links(body) {
			if l == "" || l != strings.TrimSpace(l) || strings.ContainsAny(l, "[]|#\n") {
				t.Fatalf("Links(%q) returned %q", body, l)
			}
			if seen[l] {
				t.Fatalf("Links(%q) returned %q twice", body, l)
			}
			seen[l] = true
			if !strings.Contains(body, l) {
				t.Fatalf("Links(%q) returned %q, not in the body", body, l)
			}
		}
	})
}
