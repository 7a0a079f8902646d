package web

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// TokenCookie starts the name of the cookie that carries the URL's token
// after the first request; the listener's port ends it, since a browser
// keeps cookies by host, not port, and two pages (two projects) may be
// open at once.
const TokenCookie = "mnemo_ui"

// csp allows nothing but the page's own embedded stylesheet, script and
// forms: no inline script, no other origin, no framing.
const csp = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

// newSecret returns 32 random bytes in hex.
func newSecret() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("ui: random token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// Loopback reports whether a listen address's host is a loopback address
// (or "localhost"): the page is served to this machine only.
func Loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// guard is the gate every request passes: the Host is the listener's, the
// token is right, and a change comes from this page's origin with its
// CSRF token.
type guard struct {
	token, csrf string
	cookie      string          // the token's cookie: TokenCookie-<port>
	hosts       map[string]bool // Host values that name the listener
}

func newGuard(addr string) (*guard, error) {
	token, err := newSecret()
	if err != nil {
		return nil, err
	}
	csrf, err := newSecret()
	if err != nil {
		return nil, err
	}
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("ui: listen address %q: %w", addr, err)
	}
	hosts := map[string]bool{}
	for _, h := range []string{"127.0.0.1", "localhost", "[::1]"} {
		hosts[h+":"+port] = true
	}
	return &guard{token: token, csrf: csrf, cookie: TokenCookie + "-" + port, hosts: hosts}, nil
}

func equal(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// wrap checks each request before next sees it, and sets the headers that
// keep the page to itself.
func (g *guard) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", csp)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Referrer-Policy", "same-origin") // no-referrer would make a browser send Origin: null on a POST
		h.Set("Cache-Control", "no-store")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		h.Set("Cross-Origin-Resource-Policy", "same-origin")
		if !g.hosts[r.Host] {
			http.Error(w, "mnemo ui: wrong Host: open the URL mnemo ui printed", http.StatusMisdirectedRequest)
			return
		}
		if o := r.Header.Get("Origin"); o != "" && !g.hosts[strings.TrimPrefix(o, "http://")] {
			http.Error(w, "mnemo ui: requests from another origin are refused", http.StatusForbidden)
			return
		}
		if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
			http.Error(w, "mnemo ui: requests from another site are refused", http.StatusForbidden)
			return
		}
		if q := r.URL.Query().Get("token"); q != "" {
			g.login(w, r, q)
			return
		}
		c, err := r.Cookie(g.cookie)
		if err != nil || !equal(c.Value, g.token) {
			http.Error(w, "mnemo ui: no or wrong token: open the URL mnemo ui printed", http.StatusUnauthorized)
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead && !g.sameOrigin(w, r) {
			return
		}
		next.ServeHTTP(w, r)
	})
}

// login takes the token from the URL into a cookie and redirects to the
// same page without it, so the token leaves the address bar and history.
func (g *guard) login(w http.ResponseWriter, r *http.Request, token string) {
	if r.Method != http.MethodGet || !equal(token, g.token) {
		http.Error(w, "mnemo ui: wrong token: open the URL mnemo ui printed", http.StatusUnauthorized)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: g.cookie, Value: g.token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	u := *r.URL
	q := u.Query()
	q.Del("token")
	u.RawQuery = q.Encode()
	http.Redirect(w, r, (&url.URL{Path: u.Path, RawQuery: u.RawQuery}).String(), http.StatusSeeOther)
}

// sameOrigin checks a change: it names this page's origin (Origin, which
// browsers send on every POST) and carries the CSRF token.
func (g *guard) sameOrigin(w http.ResponseWriter, r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" || !g.hosts[strings.TrimPrefix(o, "http://")] {
		http.Error(w, "mnemo ui: a change must come from this page (Origin)", http.StatusForbidden)
		return false
	}
	if err := r.ParseForm(); err != nil {
		http.Error(w, "mnemo ui: bad form: "+err.Error(), http.StatusBadRequest)
		return false
	}
	if !equal(r.PostForm.Get("csrf"), g.csrf) {
		http.Error(w, "mnemo ui: missing or wrong CSRF token: reload the page", http.StatusForbidden)
		return false
	}
	return true
}
