package web

import (
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// dupFixture is the fixture with ci-runs-on-main said again in a second
// memory, with its own source and a tag.
func dupFixture(t *testing.T) *fixture {
	fx := newFixture(t)
	m := memory.New(memory.Header{Name: "ci-on-main", Description: "CI runs on every push to main", Type: memory.TypeProject,
		Created: now.AddDate(0, 0, 1), Source: "session:5e6f7a8b", Why: "Said in a session.", Confidence: 0.8, Tags: []string{"ci"}},
		"The pipeline in .ci/run runs on every push to main.")
	if err := fx.v.Create(t.Context(), m); err != nil {
		t.Fatal(err)
	}
	fx.memory("links-to-dup", "Where CI is described", "See [[ci-on-main]].")
	return fx
}

// TestDuplicateGroups: the Memories page shows the memories that say one
// fact as a group to merge, and nothing for memories of other facts.
func TestDuplicateGroups(t *testing.T) {
	body := dupFixture(t).do(req{path: "/memories"}).Body.String()
	for _, want := range []string{"Near duplicates", `action="/merge"`, `name="name" value="ci-runs-on-main"`, `name="name" value="ci-on-main"`} {
		if !strings.Contains(body, want) {
			t.Errorf("no %q in the Memories page", want)
		}
	}
	if strings.Contains(body, `name="name" value="deploy-with-make"`) {
		t.Errorf("deploy-with-make is grouped with memories of another fact")
	}
	if body := newFixture(t).do(req{path: "/memories"}).Body.String(); strings.Contains(body, "Near duplicates") {
		t.Errorf("a vault without duplicates shows a group")
	}
	if body := dupFixture(t).do(req{path: "/memories?q=ci"}).Body.String(); strings.Contains(body, "Near duplicates") {
		t.Errorf("a search shows the groups")
	}
}

// TestMergeAction merges a group through the page, with each choice.
func TestMergeAction(t *testing.T) {
	group := mergeForm(t, dupFixture(t).do(req{path: "/memories"}).Body.String())
	with := func(kv ...string) url.Values {
		f := url.Values{}
		for k, v := range group {
			f[k] = v
		}
		for i := 0; i < len(kv); i += 2 {
			f.Set(kv[i], kv[i+1])
		}
		return f
	}
	tests := []struct {
		name  string
		form  url.Values
		to    string                   // in the redirect
		check func(fx *fixture) string // what is wrong, or ""
	}{
		{"keep the first, its text, delete the other", with("keep", "ci-runs-on-main", "text", "ci-runs-on-main", "prov", "ci-runs-on-main", "fate", "delete"), "msg=merged",
			func(fx *fixture) string {
				return notInVault(fx, "ci-on-main") + kept(fx, "ci-on-main", "The pipeline in .ci/run runs on every push") + inVault(fx, "ci-runs-on-main", "The pipeline is in .ci/run.") +
					inVault(fx, "ci-runs-on-main", "tags: [ci]") + inVault(fx, "links-to-dup", "[[ci-runs-on-main]]") + inVault(fx, "ci-runs-on-main", "source: manual")
			}},
		{"the other's text and provenance, superseded", with("keep", "ci-runs-on-main", "text", "ci-on-main", "prov", "ci-on-main", "fate", "supersede"), "msg=merged",
			func(fx *fixture) string {
				return inVault(fx, "ci-runs-on-main", "The pipeline in .ci/run runs on every push") + inVault(fx, "ci-runs-on-main", "source: session:5e6f7a8b") +
					status(fx, "ci-on-main", memory.StatusSuperseded, "ci-runs-on-main") + inVault(fx, "links-to-dup", "[[ci-runs-on-main]]")
			}},
		{"keep the second", with("keep", "ci-on-main", "fate", "delete"), "msg=merged",
			func(fx *fixture) string {
				return notInVault(fx, "ci-runs-on-main") + kept(fx, "ci-runs-on-main", "The pipeline is in .ci/run.") + inVault(fx, "ci-on-main", "") + inVault(fx, "deploy-with-make", "[[ci-on-main]]")
			}},
		{"keep is not in the group", with("keep", "deploy-with-make"), "err=",
			func(fx *fixture) string { return inVault(fx, "ci-on-main", "") + inVault(fx, "ci-runs-on-main", "") }},
		{"text is not in the group", with("keep", "ci-on-main", "text", "deploy-with-make"), "err=",
			func(fx *fixture) string { return inVault(fx, "ci-on-main", "") + inVault(fx, "ci-runs-on-main", "") }},
		{"one name only", url.Values{"where": {"project"}, "name": {"ci-on-main"}, "keep": {"ci-on-main"}}, "err=",
			func(fx *fixture) string { return inVault(fx, "ci-on-main", "") }},
		{"a memory that is gone", with("keep", "ci-on-main", "name", "nope"), "err=",
			func(fx *fixture) string { return inVault(fx, "ci-on-main", "") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := dupFixture(t)
			if tt.name == "a memory that is gone" {
				tt.form["name"] = []string{"ci-on-main", "nope"}
			}
			if tt.name == "one name only" {
				tt.form["seen"] = group["seen"][1:]
			}
			w := fx.do(req{method: "POST", path: "/merge", form: tt.form})
			if w.Code != http.StatusSeeOther || !strings.Contains(w.Header().Get("Location"), tt.to) {
				t.Errorf("POST /merge: %d to %q, want 303 with %q: %s", w.Code, w.Header().Get("Location"), tt.to, w.Body)
			}
			if bad := tt.check(fx); bad != "" {
				t.Error(bad)
			}
		})
	}
}

// TestMergeGuarded: a merge needs the token, the CSRF token and this
// page's origin, and names a vault, never a path.
func TestMergeGuarded(t *testing.T) {
	form := url.Values{"where": {"project"}, "name": {"ci-runs-on-main", "ci-on-main"}, "keep": {"ci-runs-on-main"}}
	tests := []struct {
		name string
		r    req
		want int
	}{
		{"no token", req{method: "POST", path: "/merge", form: form, token: "-"}, http.StatusUnauthorized},
		{"no CSRF", req{method: "POST", path: "/merge", form: form, csrf: "-"}, http.StatusForbidden},
		{"another origin", req{method: "POST", path: "/merge", form: form, origin: "http://evil.example"}, http.StatusForbidden},
		{"a path for a vault", req{method: "POST", path: "/merge", form: url.Values{"where": {"../.."}, "name": form["name"], "keep": form["keep"]}}, http.StatusNotFound},
		{"the state folder", req{method: "POST", path: "/merge", form: url.Values{"where": {"state"}, "name": form["name"], "keep": form["keep"]}}, http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := dupFixture(t)
			if w := fx.do(tt.r); w.Code != tt.want {
				t.Errorf("got %d, want %d: %s", w.Code, tt.want, w.Body)
			}
			if bad := inVault(fx, "ci-on-main", "") + inVault(fx, "ci-runs-on-main", ""); bad != "" {
				t.Error(bad)
			}
		})
	}
}

// TestMergeKeepsWhatChanged: a memory of the group that changed after the
// page showed it (a git pull, an edit, a worker's extension) is not merged
// away on the strength of what the page showed: the merge is refused and
// the memory keeps what it says now. The form is the page's own.
func TestMergeKeepsWhatChanged(t *testing.T) {
	tests := []struct {
		name, changed, keep string
	}{
		{"the other changed", "ci-on-main", "ci-runs-on-main"},
		{"the kept one changed", "ci-runs-on-main", "ci-on-main"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := dupFixture(t)
			form := mergeForm(t, fx.do(req{path: "/memories"}).Body.String())
			form.Set("keep", tt.keep)
			form.Set("text", tt.keep)
			form.Set("prov", tt.keep)
			form.Set("fate", "delete")
			if _, err := fx.v.Update(t.Context(), tt.changed, func(m *memory.Memory) error {
				m.Body = "The pipeline in .ci/run runs on every push to main and takes 12 minutes."
				return nil
			}); err != nil {
				t.Fatal(err)
			}
			w := fx.do(req{method: "POST", path: "/merge", form: form})
			if loc := w.Header().Get("Location"); w.Code != http.StatusSeeOther || !strings.Contains(loc, "err=") {
				t.Errorf("POST /merge: %d to %q, want it refused: %s", w.Code, loc, w.Body)
			}
			if bad := inVault(fx, tt.changed, "takes 12 minutes") + inVault(fx, "ci-on-main", "") + inVault(fx, "ci-runs-on-main", ""); bad != "" {
				t.Error(bad)
			}
		})
	}
}

// mergeForm returns the hidden fields of the first merge form of a page.
func mergeForm(t *testing.T, page string) url.Values {
	t.Helper()
	start := strings.Index(page, `action="/merge"`)
	if start < 0 {
		t.Fatal("no merge form on the page")
	}
	end := strings.Index(page[start:], "</form>")
	f := url.Values{}
	for _, m := range hiddenRE.FindAllStringSubmatch(page[start:start+end], -1) {
		if m[1] != "csrf" {
			f.Add(m[1], html.UnescapeString(m[2]))
		}
	}
	return f
}

var hiddenRE = regexp.MustCompile(`<input type="hidden" name="([a-z]+)" value="([^"]*)">`)
