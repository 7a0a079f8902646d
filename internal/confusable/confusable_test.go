package confusable

import (
	"slices"
	"testing"
)

func TestLatin(t *testing.T) {
	tests := []struct{ in, want rune }{
		{'о', 'o'}, {'О', 'o'}, {'ο', 'o'}, {'Ο', 'o'},
		{'е', 'e'}, {'а', 'a'}, {'р', 'p'}, {'с', 'c'}, {'х', 'x'}, {'у', 'y'},
		{'і', 'i'}, {'ѕ', 's'}, {'ԁ', 'd'}, {'Μ', 'm'}, {'Ν', 'n'},
		{'o', 'o'}, {'ж', 'ж'}, {'λ', 'λ'}, {'7', '7'}, {'ｏ', 'ｏ'},
	}
	for _, tt := range tests {
		if got := Latin(tt.in); got != tt.want {
			t.Errorf("Latin(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestLookAlikes(t *testing.T) {
	tests := []struct {
		in   rune
		want []rune
	}{
		{'o', []rune{'Ο', 'ο', 'О', 'о'}},
		{'O', []rune{'Ο', 'ο', 'О', 'о'}},
		{'m', []rune{'Μ', 'М', 'м'}},
		{'f', nil},
		{'7', nil},
	}
	for _, tt := range tests {
		if got := LookAlikes(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("LookAlikes(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
