package mcpserver_test

import (
	"strings"
	"testing"
)

type getOut struct {
	Name       string `json:"name"`
	Body       string `json:"body"`
	NextCursor string `json:"next_cursor"`
	Status     string `json:"status"`
	Links      []struct {
		Name, Description string
		Missing           bool
	} `json:"links"`
	LinkedFrom []struct{ Name, Description string } `json:"linked_from"`
}

func TestGet(t *testing.T) {
	f := newFixture(t, map[string]string{
		".memory/auth-lives-in-auth.md": mem("auth-lives-in-auth", "project", "Authentication lives in internal/auth",
			"See [[billing-boundary]] and [[session-tokens]]."),
		".memory/billing-boundary.md": mem("billing-boundary", "project", "UserService must not import billing", "Billing is its own module."),
		".memory/login-flow.md":       mem("login-flow", "project", "Login goes through the auth service", "Details in [[auth-lives-in-auth]]."),
		".memory/long-notes.md":       mem("long-notes", "reference", "A long reference note", strings.Repeat("0123456789 abcdefghi\n", 2000)),
	})
	var out getOut
	text := f.ok("get", map[string]any{"name": "auth-lives-in-auth"}, &out)
	if out.Name != "auth-lives-in-auth" || !strings.Contains(out.Body, "[[billing-boundary]]") || out.Status != "active" {
		t.Errorf("get = %+v", out)
	}
	if len(out.Links) != 2 || out.Links[0].Description != "UserService must not import billing" || !out.Links[1].Missing {
		t.Errorf("links = %+v, want billing-boundary with its description, session-tokens missing", out.Links)
	}
	if len(out.LinkedFrom) != 1 || out.LinkedFrom[0].Name != "login-flow" || out.LinkedFrom[0].Description == "" {
		t.Errorf("linked_from = %+v, want login-flow", out.LinkedFrom)
	}
	if !strings.Contains(text, "linked from login-flow") {
		t.Errorf("text lacks the backlink:\n%s", text)
	}

	// A body longer than a page comes in pages that add up to it.
	var body strings.Builder
	args := map[string]any{"name": "long-notes.md"}
	for range 10 {
		var page getOut
		f.ok("get", args, &page)
		body.WriteString(page.Body)
		if page.NextCursor == "" {
			break
		}
		args = map[string]any{"name": "long-notes", "cursor": page.NextCursor}
	}
	if want := f.load("long-notes").Body; body.String() != want {
		t.Errorf("the pages add up to %d bytes, want %d", body.Len(), len(want))
	}

	for _, tt := range []struct{ name, want string }{{"nope", "no such memory"}, {"Bad Name", "not a memory name"}} {
		if got := f.fail("get", map[string]any{"name": tt.name}); !strings.Contains(got, tt.want) {
			t.Errorf("get(%q) error = %q, want %q", tt.name, got, tt.want)
		}
	}
}
