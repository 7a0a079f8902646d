package web

import (
	"cmp"
	"context"
	"html"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/staleness"
)

// fakeChecker is a repository where cmd/deploy.sh was renamed to
// scripts/release.sh, and every file hashes to "0123456789abcdef" now.
type fakeChecker struct {
	recorded []string
	hash     string // the anchored files' hash now; nowHash when empty
}

func (c *fakeChecker) now() string { return cmp.Or(c.hash, nowHash) }

const nowHash = "0123456789abcdef"

func (c *fakeChecker) Check(_ context.Context, m *memory.Memory) staleness.Result {
	for _, f := range m.Anchors.Files {
		if f.Path == "cmd/deploy.sh" {
			return staleness.Result{State: staleness.Suspect, Reasons: []string{"cmd/deploy.sh was renamed to scripts/release.sh"},
				Renames: map[string]string{"cmd/deploy.sh": "scripts/release.sh"}}
		}
		if f.SHA256 != nowHash {
			return staleness.Result{State: staleness.Suspect, Reasons: []string{f.Path + " changed"}}
		}
	}
	return staleness.Result{State: staleness.Fresh}
}

func (c *fakeChecker) Record(_ context.Context, where, name string, r staleness.Result) error {
	c.recorded = append(c.recorded, where+"/"+name+":"+string(r.State))
	return nil
}

func (c *fakeChecker) Reanchor(_ context.Context, m *memory.Memory) (*memory.Memory, bool) {
	f := m.Clone()
	for i := range f.Anchors.Files {
		f.Anchors.Files[i].SHA256 = c.now()
	}
	f.Anchors.Commit = strings.Repeat("b", 40)
	return f, f.Anchors.Commit != m.Anchors.Commit || f.Anchors.Files[0].SHA256 != m.Anchors.Files[0].SHA256
}

// staleFixture adds two suspect memories: one anchored to a file that was
// renamed, one to a file that changed.
func staleFixture(t *testing.T) (*fixture, *fakeChecker) {
	fx := newFixture(t)
	for _, a := range []struct{ name, path, body string }{
		{"deploy-script", "cmd/deploy.sh", "Deploy with cmd/deploy.sh."},
		{"auth-service", "internal/auth/service.go", "Auth is in internal/auth/service.go."},
	} {
		m := memory.New(memory.Header{Name: a.name, Description: "About " + a.path, Type: memory.TypeProject, Created: now, Source: "manual", Confidence: 1,
			Anchors: memory.Anchors{Commit: strings.Repeat("a", 40), Files: []memory.FileAnchor{{Path: a.path, SHA256: "fedcba9876543210"}}}}, a.body)
		if err := fx.v.Create(t.Context(), m); err != nil {
			t.Fatal(err)
		}
	}
	fx.srv.cfg.Suspects = func(context.Context) (map[index.Key]index.Verdict, error) {
		return map[index.Key]index.Verdict{
			{Source: "project", Name: "deploy-script"}: {State: "suspect", Reasons: []string{"cmd/deploy.sh was renamed to scripts/release.sh"}},
			{Source: "project", Name: "auth-service"}:  {State: "suspect", Reasons: []string{"internal/auth/service.go changed"}},
		}, nil
	}
	c := &fakeChecker{}
	fx.srv.cfg.Checker = c
	return fx, c
}

func TestStalePage(t *testing.T) {
	fx, _ := staleFixture(t)
	body := fx.do(req{path: "/stale"}).Body.String()
	for _, want := range []string{"cmd/deploy.sh was renamed to scripts/release.sh", `action="/m/project/deploy-script/follow"`,
		`name="to" value="scripts/release.sh"`, "Follow to scripts/release.sh", `action="/m/project/auth-service/reanchor"`} {
		if !strings.Contains(body, want) {
			t.Errorf("no %q in the Stale page", want)
		}
	}
	if strings.Contains(body, `action="/m/project/auth-service/follow"`) {
		t.Errorf("a memory whose file only changed is offered a rename")
	}
	fx.srv.cfg.Checker = nil
	if body := fx.do(req{path: "/stale"}).Body.String(); strings.Contains(body, "/reanchor") || !strings.Contains(body, "deploy-script") {
		t.Errorf("without a repository the page offers fixes, or lost its rows")
	}
}

func TestStaleActions(t *testing.T) {
	tests := []struct {
		name, path string
		form       url.Values
		msg        string
		check      func(fx *fixture) string
		recorded   string
	}{
		{"follow the rename", "/m/project/deploy-script/follow", url.Values{"from": {"cmd/deploy.sh"}, "to": {"scripts/release.sh"}}, "msg=followed",
			func(fx *fixture) string {
				return inVault(fx, "deploy-script", "Deploy with scripts/release.sh.") + inVault(fx, "deploy-script", "path: scripts/release.sh") +
					inVault(fx, "deploy-script", "sha256: fedcba9876543210")
			}, "project/deploy-script:suspect"},
		{"a rename the check does not find", "/m/project/deploy-script/follow", url.Values{"from": {"cmd/deploy.sh"}, "to": {"/etc/passwd"}}, "err=",
			func(fx *fixture) string { return inVault(fx, "deploy-script", "path: cmd/deploy.sh") }, ""},
		{"no rename named", "/m/project/auth-service/follow", url.Values{}, "err=",
			func(fx *fixture) string { return inVault(fx, "auth-service", "path: internal/auth/service.go") }, ""},
		{"re-anchor", "/m/project/auth-service/reanchor", url.Values{"seen": {"internal/auth/service.go:" + nowHash + " "}}, "msg=re-anchored",
			func(fx *fixture) string {
				return inVault(fx, "auth-service", "sha256: "+nowHash) + inVault(fx, "auth-service", "commit: "+strings.Repeat("b", 40))
			}, "project/auth-service:fresh"},
		{"re-anchor what is anchored as it is", "/m/project/deploy-with-make/reanchor", nil, "err=",
			func(fx *fixture) string { return "" }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx, c := staleFixture(t)
			if tt.name == "re-anchor what is anchored as it is" {
				m := memory.New(memory.Header{Name: "fresh-one", Description: "Fresh", Type: memory.TypeProject, Source: "manual",
					Anchors: memory.Anchors{Commit: strings.Repeat("b", 40), Files: []memory.FileAnchor{{Path: "a.go", SHA256: nowHash}}}}, "x")
				if err := fx.v.Create(t.Context(), m); err != nil {
					t.Fatal(err)
				}
				tt.path = "/m/project/fresh-one/reanchor"
			}
			w := fx.do(req{method: "POST", path: tt.path, form: tt.form})
			if w.Code != http.StatusSeeOther || !strings.Contains(w.Header().Get("Location"), tt.msg) {
				t.Errorf("POST %s: %d to %q, want 303 with %q: %s", tt.path, w.Code, w.Header().Get("Location"), tt.msg, w.Body)
			}
			if bad := tt.check(fx); bad != "" {
				t.Error(bad)
			}
			if got := strings.Join(c.recorded, ","); got != tt.recorded {
				t.Errorf("recorded verdicts %q, want %q", got, tt.recorded)
			}
		})
	}
}

// TestReanchorWhatWasShown: re-anchoring records the files as the page
// showed them to the person; when they changed again before the click (a
// pull, another commit), the re-anchor is refused: the person confirmed
// other content than what would be recorded as verified.
func TestReanchorWhatWasShown(t *testing.T) {
	fx, c := staleFixture(t)
	page := fx.do(req{path: "/stale"}).Body.String()
	m := regexp.MustCompile(`action="/m/project/auth-service/reanchor"[^>]*>(?:<input type="hidden" name="([a-z]+)" value="([^"]*)">)*`).FindString(page)
	form := url.Values{}
	for _, f := range hiddenRE.FindAllStringSubmatch(m, -1) {
		if f[1] != "csrf" {
			form.Set(f[1], html.UnescapeString(f[2]))
		}
	}
	c.hash = "1111111111111111" // the file changed after the page was shown
	w := fx.do(req{method: "POST", path: "/m/project/auth-service/reanchor", form: form})
	if loc := w.Header().Get("Location"); w.Code != http.StatusSeeOther || !strings.Contains(loc, "err=") {
		t.Errorf("POST reanchor: %d to %q, want it refused", w.Code, loc)
	}
	if bad := inVault(fx, "auth-service", "sha256: fedcba9876543210"); bad != "" {
		t.Error(bad)
	}
	c.hash = ""
	w = fx.do(req{method: "POST", path: "/m/project/auth-service/reanchor", form: form})
	if loc := w.Header().Get("Location"); !strings.Contains(loc, "msg=re-anchored") {
		t.Errorf("POST reanchor of the files as shown: %d to %q, want it done", w.Code, loc)
	}
}

// TestStaleGuarded: the fixes need the token, the CSRF token and this
// page's origin, name a memory by a valid name, and need a repository.
func TestStaleGuarded(t *testing.T) {
	follow := url.Values{"from": {"cmd/deploy.sh"}, "to": {"scripts/release.sh"}}
	tests := []struct {
		name string
		r    req
		want int
	}{
		{"no token", req{method: "POST", path: "/m/project/deploy-script/follow", form: follow, token: "-"}, http.StatusUnauthorized},
		{"no CSRF", req{method: "POST", path: "/m/project/deploy-script/follow", form: follow, csrf: "-"}, http.StatusForbidden},
		{"another origin", req{method: "POST", path: "/m/project/auth-service/reanchor", origin: "http://evil.example"}, http.StatusForbidden},
		{"a path for a name", req{method: "POST", path: "/m/project/..%2f..%2fsecret/reanchor"}, http.StatusNotFound},
		{"the state folder", req{method: "POST", path: "/m/state/inbox/follow", form: follow}, http.StatusNotFound},
		{"no repository", req{method: "POST", path: "/m/project/auth-service/reanchor"}, http.StatusNotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx, _ := staleFixture(t)
			if tt.name == "no repository" {
				fx.srv.cfg.Checker = nil
			}
			if w := fx.do(tt.r); w.Code != tt.want {
				t.Errorf("got %d, want %d: %s", w.Code, tt.want, w.Body)
			}
			if bad := inVault(fx, "deploy-script", "path: cmd/deploy.sh") + inVault(fx, "auth-service", "sha256: fedcba9876543210"); bad != "" {
				t.Error(bad)
			}
		})
	}
}
