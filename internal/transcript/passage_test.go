package transcript

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPassage(t *testing.T) {
	d := &Digest{Turns: []*Turn{
		{Index: 1, Kind: TurnPrompt, Items: []Item{
			{Kind: ItemUser, Text: "fix the flaky cart test"},
			{Kind: ItemAssistant, Text: "The cart test races on the clock."},
		}},
		{Index: 2, Kind: TurnPrompt, Items: []Item{
			{Kind: ItemUser, Text: "what port does the gadget service use?"},
			{Kind: ItemAssistant, Text: "The gadget service listens on port 9000, set in gadget.yaml."},
			{Kind: ItemAssistant, Text: "Restart it after changing the port."},
		}},
		{Index: 3, Kind: TurnPrompt, Items: []Item{
			{Kind: ItemUser, Text: "Prüfe die Überweisung " + strings.Repeat("äöü", 200)},
		}},
	}}
	tests := []struct {
		name, fact string
		limit      int
		want       string
	}{
		{"the line that says it, with its turn around it", "Gadget service port is 9000", 600,
			"user: what port does the gadget service use?\nassistant: The gadget service listens on port 9000, set in gadget.yaml.\nassistant: Restart it after changing the port."},
		{"as much around it as fits", "Gadget service port is 9000", 120,
			"assistant: The gadget service listens on port 9000, set in gadget.yaml.\nassistant: Restart it after changing the port."},
		{"another turn", "The cart test is flaky", 600,
			"user: fix the flaky cart test\nassistant: The cart test races on the clock."},
		{"nothing shared", "Deploys run on Fridays", 600, ""},
		{"short words only", "it is on", 600, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := d.Passage(tt.fact, tt.limit); got != tt.want {
				t.Errorf("Passage(%q, %d) =\n%q\nwant\n%q", tt.fact, tt.limit, got, tt.want)
			}
		})
	}
	got := d.Passage("Prüfe die Überweisung", 100)
	if len(got) > 100 || !utf8.ValidString(got) || !strings.HasPrefix(got, "user: Prüfe") || !strings.HasSuffix(got, "…") {
		t.Errorf("a long line: %q (%d bytes), want it cut at a character within 100 bytes", got, len(got))
	}
}

// FuzzPassage: whatever the digest and the fact, the passage fits its
// limit and cuts no character in two.
func FuzzPassage(f *testing.F) {
	f.Add("The gadget service listens on port 9000, set in gadget.yaml.", "Gadget service port is 9000", 40)
	f.Add("Prüfe die Überweisung äöüäöü", "Überweisung", 7)
	f.Fuzz(func(t *testing.T, said, fact string, limit int) {
		if !utf8.ValidString(said) || limit > 1<<16 {
			return
		}
		d := &Digest{Turns: []*Turn{{Index: 1, Items: []Item{{Kind: ItemUser, Text: said}, {Kind: ItemAssistant, Text: said + " " + said}}}}}
		got := d.Passage(fact, limit)
		if len(got) > max(limit, 0) || !utf8.ValidString(got) {
			t.Errorf("Passage(%q, %d) = %q (%d bytes)", fact, limit, got, len(got))
		}
	})
}
