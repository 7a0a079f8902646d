package approval

import "testing"

// TestActive: one case per kind of evidence, on each side of its bar.
func TestActive(t *testing.T) {
	tests := []struct {
		name       string
		e          Evidence
		confidence float64
		want       bool
	}{
		{"stated at the bar", Stated, 0.85, true},
		{"stated below the bar", Stated, 0.84, false},
		{"stated, sure", Stated, 1, true},
		{"confirmed at the bar", Confirmed, 0.9, true},
		{"confirmed at the stated bar only", Confirmed, 0.85, false},
		{"inferred, however sure", Inferred, 1, false},
		{"tool output, however sure", Tool, 1, false},
		{"unknown evidence", Evidence("hearsay"), 1, false},
	}
	for _, tt := range tests {
		if got := Active(tt.e, tt.confidence); got != tt.want {
			t.Errorf("%s: Active(%q, %v) = %v, want %v", tt.name, tt.e, tt.confidence, got, tt.want)
		}
	}
}

// TestCap: an inferred fact cannot claim its way past a bar.
func TestCap(t *testing.T) {
	tests := []struct {
		e          Evidence
		confidence float64
		want       float64
	}{
		{Inferred, 0.95, InferredCap},
		{Inferred, 0.6, 0.6},
		{Tool, 0.99, InferredCap},
		{Stated, 0.95, 0.95},
		{Confirmed, 0.95, 0.95},
	}
	for _, tt := range tests {
		if got := Cap(tt.e, tt.confidence); got != tt.want {
			t.Errorf("Cap(%q, %v) = %v, want %v", tt.e, tt.confidence, got, tt.want)
		}
		if Active(tt.e, Cap(tt.e, tt.confidence)) && (tt.e == Inferred || tt.e == Tool) {
			t.Errorf("Cap(%q, %v) is still active", tt.e, tt.confidence)
		}
	}
}

// TestOf: tool output outweighs every other claim.
func TestOf(t *testing.T) {
	tests := []struct {
		stated, confirmed, tool bool
		want                    Evidence
	}{
		{true, true, true, Tool},
		{true, true, false, Stated},
		{false, true, false, Confirmed},
		{false, false, false, Inferred},
	}
	for _, tt := range tests {
		if got := Of(tt.stated, tt.confirmed, tt.tool); got != tt.want {
			t.Errorf("Of(%v, %v, %v) = %q, want %q", tt.stated, tt.confirmed, tt.tool, got, tt.want)
		}
	}
	if StatedAt <= InferredCap || ConfirmedAt <= InferredCap {
		t.Errorf("the inferred cap %v is not below the bars %v and %v", InferredCap, StatedAt, ConfirmedAt)
	}
}
