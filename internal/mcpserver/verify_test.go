package mcpserver_test

import (
	"os"
	"slices"
	"strings"
	"testing"
)

type verifyOut struct {
	Checked, Fresh, Suspect, Unverifiable int
	Results                               []struct {
		Name, State string
		Reasons     []string
	}
}

func TestVerify(t *testing.T) {
	f := newFixture(t, map[string]string{
		"internal/auth/service.go": "package auth\n",
		"web/app.ts":               "export {}\n",
		".memory/plain-fact.md":    mem("plain-fact", "user", "The user prefers short answers", "Keep it short."),
	})
	// Two memories anchored as the files are now, through remember.
	f.prompt("s", "Authentication lives in internal/auth now, auth moved. The web app entry point is web/app.ts; Vite builds it.")
	var a, b rememberOut
	f.ok("remember", map[string]any{"description": "Authentication lives in internal/auth", "fact": "Auth moved.", "files": []string{"internal/auth/service.go"}}, &a)
	f.ok("remember", map[string]any{"description": "The web app entry point is web/app.ts", "fact": "Vite builds it.", "files": []string{"web/app.ts"}}, &b)
	f.write("internal/auth/service.go", "package auth\n\nfunc Verify() {}\n")

	var all verifyOut
	f.ok("verify", map[string]any{}, &all)
	if all.Checked != 3 || all.Fresh != 1 || all.Suspect != 1 || all.Unverifiable != 1 {
		t.Errorf("verify() = %+v, want 3 checked: 1 fresh, 1 suspect, 1 unverifiable", all)
	}
	if len(all.Results) != 1 || all.Results[0].Name != a.Name || !strings.Contains(strings.Join(all.Results[0].Reasons, " "), "internal/auth/service.go changed") {
		t.Errorf("verify() results = %+v, want %s suspect", all.Results, a.Name)
	}
	// The verdict is stored: recall ranks the suspect memory lower and says why.
	var rec recallOut
	f.ok("recall", map[string]any{"query": "authentication"}, &rec)
	if len(rec.Memories) == 0 || !strings.Contains(rec.Memories[0].Why, "suspect") {
		t.Errorf("recall after verify = %+v, want the memory marked suspect", rec.Memories)
	}

	var one verifyOut
	f.ok("verify", map[string]any{"name": b.Name}, &one)
	if len(one.Results) != 1 || one.Results[0].State != "fresh" {
		t.Errorf("verify(%s) = %+v, want fresh", b.Name, one)
	}
	if got := f.fail("verify", map[string]any{"name": "nothing"}); !strings.Contains(got, "no such memory") {
		t.Errorf("verify(nothing) error = %q", got)
	}
}

// TestVerifyHostile: a memory that arrived through git can hold anything;
// the verify tool runs it past git and the file system, and neither may
// act on what it says: its commit never reaches git as an option, and its
// anchors are never hashed outside the repository.
func TestVerifyHostile(t *testing.T) {
	const secretHash = "c10c53f81b016cdd" // of outside.txt, so hashing it would make the memory fresh
	anchored := func(commit, path string) string {
		return "anchors:\n  commit: \"" + commit + "\"\n  files:\n    - path: " + path + "\n      sha256: " + secretHash + "\n"
	}
	f := newFixture(t, map[string]string{
		"../outside.txt":  "the admin token is s3cr3t\n",
		".memory/opt.md":  mem("opt", "project", "Looks ordinary", "See `gone.go`.", anchored("--output=../victim.txt", "gone.go")),
		".memory/up.md":   mem("up", "project", "One folder up", "Read it.", anchored("0123abcd", "../outside.txt")),
		".memory/link.md": mem("link", "project", "Through a link", "Read it.", anchored("0123abcd", "link.txt")),
	})
	if err := os.Symlink("../outside.txt", f.path("link.txt")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, reason string
	}{
		{"opt", `anchors.commit "--output=../victim.txt" is not a commit: not used`},
		{"up", "../outside.txt is outside the repository: not checked"},
		{"link", "link.txt is outside the repository: not checked"},
	}
	for _, tt := range tests {
		var got verifyOut
		f.ok("verify", map[string]any{"name": tt.name}, &got)
		if len(got.Results) != 1 || got.Results[0].State != "suspect" || !slices.Contains(got.Results[0].Reasons, tt.reason) {
			t.Errorf("verify(%s) = %+v, want suspect: %s", tt.name, got.Results, tt.reason)
		}
	}
	var all verifyOut
	f.ok("verify", map[string]any{}, &all)
	if all.Fresh != 0 || all.Suspect != 3 {
		t.Errorf("verify() = %+v, want 3 suspect and none fresh", all)
	}
	for _, p := range []string{"../victim.txt", "victim.txt"} {
		if f.exists(p) {
			t.Errorf("verify wrote %s: the anchor commit reached git as an option", p)
		}
	}
	// The anchor writers refuse the link too.
	if got := f.fail("update", map[string]any{"name": "up", "files": []string{"link.txt"}}); !strings.Contains(got, "outside") {
		t.Errorf("update(files: link.txt) error = %q, want the link refused as outside the repository", got)
	}
}
