package plural

import "testing"

func TestN(t *testing.T) {
	tests := []struct {
		n    int
		want string
	}{
		{0, "0 memories"},
		{1, "1 memory"},
		{2, "2 memories"},
		{-1, "-1 memories"},
		{1000, "1000 memories"},
	}
	for _, tt := range tests {
		if got := N(tt.n, "memory", "memories"); got != tt.want {
			t.Errorf("N(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

func TestOf(t *testing.T) {
	for n, want := range map[int]string{0: "are", 1: "is", 2: "are"} {
		if got := Of(n, "is", "are"); got != want {
			t.Errorf("Of(%d) = %q, want %q", n, got, want)
		}
	}
}
