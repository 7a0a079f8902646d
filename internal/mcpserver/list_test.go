package mcpserver_test

import (
	"fmt"
	"strings"
	"testing"
)

type listOut struct {
	Memories []struct {
		Name, Vault, Type, Status, Description string
	} `json:"memories"`
	Total      int    `json:"total"`
	NextCursor string `json:"next_cursor"`
}

func TestList(t *testing.T) {
	files := map[string]string{
		".memory/old-way.md": mem("old-way", "feedback", "The old way", "x", "status: superseded\nsuperseded_by: new-way\n"),
		".memory/new-way.md": mem("new-way", "feedback", "The new way", "y"),
	}
	for i := range 60 {
		name := fmt.Sprintf("note-%02d", i)
		files[".memory/"+name+".md"] = mem(name, "project", "Note "+name, "body")
	}
	f := newFixture(t, files)
	tests := []struct {
		args      map[string]any
		total     int
		first     string
		shown     int
		hasCursor bool
	}{
		{map[string]any{}, 62, "new-way", 50, true},
		{map[string]any{"limit": 100}, 62, "new-way", 62, false},
		{map[string]any{"type": "feedback"}, 2, "new-way", 2, false},
		{map[string]any{"status": "superseded"}, 1, "old-way", 1, false},
		{map[string]any{"vault": "user"}, 0, "", 0, false},
		{map[string]any{"cursor": "50"}, 62, "note-49", 12, false},
	}
	for _, tt := range tests {
		var out listOut
		f.ok("list", tt.args, &out)
		first := ""
		if len(out.Memories) > 0 {
			first = out.Memories[0].Name
		}
		if out.Total != tt.total || first != tt.first || len(out.Memories) != tt.shown || (out.NextCursor != "") != tt.hasCursor {
			t.Errorf("list(%v) = total %d, first %q, %d shown, cursor %q; want %d, %q, %d, %v",
				tt.args, out.Total, first, len(out.Memories), out.NextCursor, tt.total, tt.first, tt.shown, tt.hasCursor)
		}
	}
	for _, args := range []map[string]any{{"type": "note"}, {"status": "gone"}, {"cursor": "x"}} {
		if got := f.fail("list", args); got == "" {
			t.Errorf("list(%v) failed without a message", args)
		}
	}
	if got := f.ok("list", map[string]any{"type": "feedback"}, nil); !strings.Contains(got, "old-way (project feedback, superseded)") {
		t.Errorf("text = %q", got)
	}
}
