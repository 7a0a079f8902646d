package web

import (
	"slices"
	"testing"
)

func TestDiffLines(t *testing.T) {
	tests := []struct {
		a, b string
		want []diffLine
	}{
		{"one\ntwo", "one\n2", []diffLine{{" ", "one"}, {"-", "two"}, {"+", "2"}}},
		{"same", "same", nil},
		{"", "new", []diffLine{{"-", ""}, {"+", "new"}}},
	}
	for _, tt := range tests {
		if got := diffLines(tt.a, tt.b); !slices.Equal(got, tt.want) {
			t.Errorf("diffLines(%q, %q) = %q, want %q", tt.a, tt.b, got, tt.want)
		}
	}
}
