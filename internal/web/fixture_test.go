package web

import (
	"context"
	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/recall"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

var now = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

// fixture is a project with a vault of two memories and an inbox of three
// drafts: a plain one, a contradiction of one memory and a proposed change
// to the other.
type fixture struct {
	t     *testing.T
	dir   string // the project vault
	state string
	v     *vault.Vault
	in    *consolidate.Inbox
	srv   *Server
	h     http.Handler
}

const fixtureAddr = "127.0.0.1:4242"

func newFixture(t *testing.T) *fixture {
	t.Helper()
	root := t.TempDir()
	fx := &fixture{t: t, dir: filepath.Join(root, ".memory"), state: filepath.Join(root, "state")}
	if _, err := vault.Create(fx.dir); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Open(fx.dir, vault.LockPath(fx.state))
	if err != nil {
		t.Fatal(err)
	}
	fx.v = v
	if fx.in, err = consolidate.OpenInbox(fx.state); err != nil {
		t.Fatal(err)
	}
	fx.in.LockWith(v)
	fx.memory("deploy-with-make", "Deploy with make deploy", "Run `make deploy` from the root; see [[ci-runs-on-main]].")
	fx.memory("ci-runs-on-main", "CI runs on every push to main", "The pipeline is in .ci/run.")
	fx.draft("prices-are-strings", "Prices come from the API as strings", "The API returns prices as strings; compare with Number().")
	fx.draft("deploy-with-just", "Deploy with just deploy", "Run `just deploy`; make is gone.")
	fx.draft("ci-runs-on-main-2", "CI runs on every push to main and on tags", "The pipeline is in .ci/run; tags run it too.")
	// consolidation's record of why and from what it drafted the first
	if err := fx.in.Sight(context.Background(), consolidate.Sighting{Memory: "prices-are-strings", Where: "inbox", Action: consolidate.Drafted, At: now,
		Reasons: []consolidate.Reason{consolidate.ReasonInferred, consolidate.ReasonToolOutput},
		Excerpt: "tool: WebFetch api.example/prices -> ok\n  | {\"price\": \"<b>12.50</b>\"}"}); err != nil {
		t.Fatal(err)
	}
	fx.link("deploy-with-just", "deploy-with-make", consolidate.LinkContradicts)
	fx.link("ci-runs-on-main-2", "ci-runs-on-main", consolidate.LinkChanges)
	if fx.srv, err = newServer(Config{Project: v, Inbox: fx.in, State: fx.state, Now: func() time.Time { return now }}, fixtureAddr); err != nil {
		t.Fatal(err)
	}
	fx.h = fx.srv.Handler()
	return fx
}

func (fx *fixture) memory(name, desc, body string) {
	m := memory.New(memory.Header{Name: name, Description: desc, Type: memory.TypeProject, Created: now, Source: "manual", Confidence: 1}, body)
	if err := fx.v.Create(fx.t.Context(), m); err != nil {
		fx.t.Fatal(err)
	}
}

func (fx *fixture) draft(name, desc, body string) {
	m := memory.New(memory.Header{Name: name, Description: desc, Type: memory.TypeProject, Created: now, Source: "session:7d3c9a1e", Confidence: 0.7}, body)
	if err := fx.in.Put(m); err != nil {
		fx.t.Fatal(err)
	}
}

// link records a draft's link as consolidation does, one JSON line.
func (fx *fixture) link(draft, to string, kind consolidate.LinkKind) {
	line := `{"draft":"` + draft + `","memory":"` + to + `","where":"project","kind":"` + string(kind) + `","at":"2026-11-30T09:00:00Z"}` + "\n"
	f, err := os.OpenFile(filepath.Join(fx.state, "links.jsonl"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		fx.t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(line); err != nil {
		fx.t.Fatal(err)
	}
}

// req is a request as the page itself sends it: right Host, token cookie,
// and for a POST the Origin and the CSRF token.
type req struct {
	method, path string
	form         url.Values
	host, origin string // "" means the right one; "-" means none
	token        string // "" means the right one; "-" means none
	csrf         string // "" means the right one; "-" means none
}

func (fx *fixture) do(r req) *httptest.ResponseRecorder {
	fx.t.Helper()
	var body *strings.Reader
	form := url.Values{}
	for k, v := range r.form {
		form[k] = v
	}
	switch r.csrf {
	case "":
		form.Set("csrf", fx.srv.guard.csrf)
	case "-":
	default:
		form.Set("csrf", r.csrf)
	}
	if r.method == "" {
		r.method = http.MethodGet
	}
	if r.method == http.MethodPost {
		body = strings.NewReader(form.Encode())
	} else {
		body = strings.NewReader("")
	}
	hr := httptest.NewRequest(r.method, r.path, body)
	hr.Host = pick(r.host, fixtureAddr)
	if r.method == http.MethodPost {
		hr.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if o := pick(r.origin, "http://"+fixtureAddr); o != "" {
			hr.Header.Set("Origin", o)
		}
	} else if r.origin != "" && r.origin != "-" {
		hr.Header.Set("Origin", r.origin)
	}
	if tok := pick(r.token, fx.srv.guard.token); tok != "" {
		hr.AddCookie(&http.Cookie{Name: fx.srv.guard.cookie, Value: tok})
	}
	w := httptest.NewRecorder()
	fx.h.ServeHTTP(w, hr)
	return w
}

func pick(v, right string) string {
	switch v {
	case "":
		return right
	case "-":
		return ""
	}
	return v
}

// recall searches the fixture's vault with mnemo's recall, as the CLI
// wires it.
func (fx *fixture) recall(ctx context.Context, q recall.Query) ([]recall.Result, error) {
	db, err := index.Open(ctx, filepath.Join(fx.state, index.FileName), slog.New(slog.DiscardHandler))
	if err != nil {
		return nil, err
	}
	defer db.Close()
	if _, err := db.Sync(ctx, index.Source{Name: "project", Dir: fx.dir}); err != nil {
		return nil, err
	}
	return recall.New(db, recall.DefaultConfig()).Recall(ctx, q)
}
