package mcpserver_test

import (
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
