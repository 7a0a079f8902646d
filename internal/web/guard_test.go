package web

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGuard sends what another site, a DNS-rebinding page or a stray
// local process would send, and checks each is refused before any
// handler runs, and that no draft was touched.
func TestGuard(t *testing.T) {
	approve := url.Values{"action": {"approve"}, "name": {"prices-are-strings"}}
	tests := []struct {
		name string
		r    req
		want int
	}{
		{"no token", req{path: "/", token: "-"}, http.StatusUnauthorized},
		{"wrong token", req{path: "/", token: "0000"}, http.StatusUnauthorized},
		{"wrong token in the URL", req{path: "/?token=0000", token: "-"}, http.StatusUnauthorized},
		{"wrong token on an asset", req{path: "/assets/style.css", token: "bad"}, http.StatusUnauthorized},
		{"rebinding Host", req{path: "/", host: "evil.example:4242"}, http.StatusMisdirectedRequest},
		{"rebinding Host on the same port name", req{path: "/", host: "127.0.0.1.evil.example:4242"}, http.StatusMisdirectedRequest},
		{"other port", req{path: "/", host: "127.0.0.1:80"}, http.StatusMisdirectedRequest},
		{"cross-origin GET", req{path: "/memories", origin: "http://evil.example"}, http.StatusForbidden},
		{"cross-origin POST", req{method: "POST", path: "/inbox", form: approve, origin: "http://evil.example"}, http.StatusForbidden},
		{"https origin of the same host", req{method: "POST", path: "/inbox", form: approve, origin: "https://" + fixtureAddr}, http.StatusForbidden},
		{"null origin POST", req{method: "POST", path: "/inbox", form: approve, origin: "null"}, http.StatusForbidden},
		{"POST without Origin", req{method: "POST", path: "/inbox", form: approve, origin: "-"}, http.StatusForbidden},
		{"POST without CSRF", req{method: "POST", path: "/inbox", form: approve, csrf: "-"}, http.StatusForbidden},
		{"POST with a wrong CSRF", req{method: "POST", path: "/inbox", form: approve, csrf: "1234"}, http.StatusForbidden},
		{"POST with the token as CSRF", req{method: "POST", path: "/m/project/ci-runs-on-main/delete", csrf: "token"}, http.StatusForbidden},
		{"POST without token", req{method: "POST", path: "/inbox", form: approve, token: "-"}, http.StatusUnauthorized},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(t)
			if tt.r.csrf == "token" {
				tt.r.csrf = fx.srv.guard.token
			}
			w := fx.do(tt.r)
			if w.Code != tt.want {
				t.Errorf("%s %s: got %d, want %d (%s)", tt.r.method, tt.r.path, w.Code, tt.want, strings.TrimSpace(w.Body.String()))
			}
			if _, err := fx.in.Load("prices-are-strings"); err != nil {
				t.Errorf("the draft was touched: %v", err)
			}
			if _, err := fx.v.Load("ci-runs-on-main"); err != nil {
				t.Errorf("the memory was touched: %v", err)
			}
		})
	}
}

// TestGuardHeaders checks the headers that keep the page to itself on
// every answer, refused or not.
func TestGuardHeaders(t *testing.T) {
	fx := newFixture(t)
	for _, r := range []req{{path: "/"}, {path: "/", token: "-"}, {path: "/assets/app.js"}} {
		h := fx.do(r).Header()
		for k, want := range map[string]string{"Content-Security-Policy": csp, "X-Frame-Options": "DENY", "Referrer-Policy": "same-origin", "X-Content-Type-Options": "nosniff"} {
			if got := h.Get(k); got != want {
				t.Errorf("%s: %s = %q, want %q", r.path, k, got, want)
			}
		}
	}
	if strings.Contains(csp, "unsafe") || !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("csp is not strict: %s", csp)
	}
}

// TestLogin checks that the URL's token becomes a strict cookie and leaves
// the address bar.
func TestLogin(t *testing.T) {
	fx := newFixture(t)
	w := fx.do(req{path: "/memories?q=deploy&token=" + fx.srv.guard.token, token: "-"})
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/memories?q=deploy" {
		t.Fatalf("got %d to %q, want 303 to /memories?q=deploy", w.Code, w.Header().Get("Location"))
	}
	c := w.Result().Cookies()
	if len(c) != 1 || c[0].Value != fx.srv.guard.token || !c[0].HttpOnly || c[0].SameSite != http.SameSiteStrictMode {
		t.Errorf("cookie = %+v, want the token, HttpOnly, SameSite=Strict", c)
	}
}

// TestTraversal asks for files outside the vaults by every path the
// routes take a name from; none is read.
func TestTraversal(t *testing.T) {
	fx := newFixture(t)
	secret := filepath.Join(filepath.Dir(fx.dir), "secret.md")
	if err := os.WriteFile(secret, []byte("---\nname: secret\ndescription: x\ntype: project\n---\nTOPSECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	paths := []string{
		"/m/project/..%2fsecret", "/m/project/../secret", "/m/project/%2e%2e%2fsecret",
		"/m/..%2f..%2fetc/passwd", "/m/user/secret", "/m/project/..", "/m/state/inbox",
		"/assets/../templates/layout.html", "/assets/%2e%2e/server.go", "/inbox/..%2f..%2fsecret/edit",
		"/m/project/MEMORY", "/m/project/deploy-with-make.md",
	}
	for _, p := range paths {
		w := fx.do(req{path: p})
		if w.Code == http.StatusOK || strings.Contains(w.Body.String(), "TOPSECRET") || strings.Contains(w.Body.String(), "root:") {
			t.Errorf("GET %s: got %d, want a refusal:\n%.200s", p, w.Code, w.Body.String())
		}
	}
	for _, p := range []string{"/m/project/..%2fsecret/delete", "/m/project/..%2fsecret/edit"} {
		if w := fx.do(req{method: "POST", path: p}); w.Code < 400 {
			t.Errorf("POST %s: got %d, want a refusal", p, w.Code)
		}
	}
	if _, err := os.Stat(secret); err != nil {
		t.Errorf("the file outside the vault is gone: %v", err)
	}
}

func TestLoopback(t *testing.T) {
	tests := []struct {
		addr string
		want bool
	}{
		{"127.0.0.1:0", true}, {"127.8.0.1:9000", true}, {"[::1]:0", true}, {"localhost:0", true},
		{"0.0.0.0:0", false}, {":8080", false}, {"[::]:0", false}, {"192.168.1.2:80", false}, {"example.com:80", false}, {"127.0.0.1", false},
	}
	for _, tt := range tests {
		if got := Loopback(tt.addr); got != tt.want {
			t.Errorf("Loopback(%q) = %v, want %v", tt.addr, got, tt.want)
		}
	}
	if _, err := Listen(Config{}, "0.0.0.0:0"); err == nil {
		t.Errorf("Listen on 0.0.0.0: no error")
	}
}
