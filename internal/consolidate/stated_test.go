package consolidate

import "testing"

// TestOnlyStatedFactsAreApproved: however sure the writer is, a fact no
// person stated waits in the inbox, through Add and AddNew alike.
func TestOnlyStatedFactsAreApproved(t *testing.T) {
	tests := []struct {
		name   string
		f      Fact
		want   Action
		addNew bool
	}{
		{"stated", Fact{Description: "Deploys go out on Tuesdays", Body: "The train leaves at 10:00 UTC.", Confidence: 0.9, Stated: true}, Added, false},
		{"not stated", Fact{Description: "Deploys go out on Tuesdays", Body: "The train leaves at 10:00 UTC.", Confidence: 1}, Drafted, false},
		{"not stated, forced", Fact{Description: "Deploys go out on Tuesdays", Body: "The train leaves at 10:00 UTC.", Confidence: 1}, Drafted, true},
		{"confirmed by a command, at its bar", Fact{Description: "Deploys go out on Tuesdays", Body: "The train leaves at 10:00 UTC.", Confidence: 0.9, Confirmed: true}, Added, false},
		{"confirmed by a command, below its bar", Fact{Description: "Deploys go out on Tuesdays", Body: "The train leaves at 10:00 UTC.", Confidence: 0.85, Confirmed: true}, Drafted, false},
		{"confirmed, from tool output", Fact{Description: "Deploys go out on Tuesdays", Body: "The train leaves at 10:00 UTC.", Confidence: 1, Confirmed: true, FromToolOutput: true}, Drafted, false},
		{"stated, from tool output", Fact{Description: "Deploys go out on Tuesdays", Body: "The train leaves at 10:00 UTC.", Confidence: 1, Stated: true, FromToolOutput: true}, Drafted, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := setup(t)
			add := e.c.Add
			if tt.addNew {
				add = e.c.AddNew
			}
			o, err := add(e.ctx, tt.f)
			if err != nil {
				t.Fatal(err)
			}
			if o.Action != tt.want {
				t.Errorf("%s = %+v, want %s", tt.name, o, tt.want)
			}
		})
	}
}
