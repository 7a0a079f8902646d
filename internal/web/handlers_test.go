package web

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

// TestPages checks that every page answers and shows what it is for.
func TestPages(t *testing.T) {
	fx := newFixture(t)
	tests := []struct {
		path string
		want []string
	}{
		{"/", []string{"prices-are-strings", "inferred from a session, not in your words; from tool output", "session <code>7d3c9a1e</code>", "70%",
			"From the session", "api.example/prices", "&lt;b&gt;12.50&lt;/b&gt;",
			"contradicts deploy-with-make", "Keep old", "Keep new", "Keep both",
			"proposes a change to ci-runs-on-main", `class="dl dadd"`, "tags run it too"}},
		{"/inbox/prices-are-strings/edit", []string{`name="description"`, "compare with Number()"}},
		{"/memories", []string{"deploy-with-make", "ci-runs-on-main", "2 of 2"}},
		{"/memories?type=user", []string{"0 of 2", "No memory matches"}},
		{"/m/project/deploy-with-make", []string{"<code>make deploy</code>", `<a class="wikilink" href="/m/project/ci-runs-on-main">ci-runs-on-main</a>`, "deploy-with-just", "contradicts"}},
		{"/m/project/ci-runs-on-main", []string{"Backlinks", `href="/m/project/deploy-with-make"`}},
		{"/stale", []string{"Nothing is stale"}},
		{"/graph", []string{"<svg", "2 memories, 1 links", "<line"}},
		{"/activity", []string{"Worker", "No jobs yet"}},
		{"/assets/app.js", []string{"keydown"}},
		{"/assets/style.css", []string{".draft"}},
	}
	for _, tt := range tests {
		w := fx.do(req{path: tt.path})
		if w.Code != http.StatusOK {
			t.Errorf("GET %s: %d: %s", tt.path, w.Code, w.Body)
			continue
		}
		for _, s := range tt.want {
			if !strings.Contains(w.Body.String(), s) {
				t.Errorf("GET %s: no %q in the page", tt.path, s)
			}
		}
	}
	for _, p := range []string{"/m/project/nope", "/inbox/nope/edit", "/nope"} {
		if w := fx.do(req{path: p}); w.Code != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404", p, w.Code)
		}
	}
}

// TestActions posts every change the page makes and checks the vault
// and the inbox after it.
func TestActions(t *testing.T) {
	tests := []struct {
		name  string
		path  string
		form  url.Values
		msg   string                   // in the redirect
		check func(fx *fixture) string // what is wrong, or ""
	}{
		{"approve one", "/inbox", url.Values{"action": {"approve"}, "name": {"prices-are-strings"}}, "msg=approved",
			func(fx *fixture) string {
				return inVault(fx, "prices-are-strings", "compare with Number()") + notDraft(fx, "prices-are-strings")
			}},
		{"approve several", "/inbox", url.Values{"action": {"approve"}, "name": {"prices-are-strings", "deploy-with-just"}}, "msg=approved",
			func(fx *fixture) string {
				return inVault(fx, "prices-are-strings", "") + inVault(fx, "deploy-with-just", "")
			}},
		{"approve a proposed change", "/inbox", url.Values{"action": {"approve"}, "name": {"ci-runs-on-main-2"}}, "msg=approved",
			func(fx *fixture) string {
				return inVault(fx, "ci-runs-on-main", "tags run it too") + notDraft(fx, "ci-runs-on-main-2")
			}},
		{"reject with a reason", "/inbox", url.Values{"action": {"reject"}, "name": {"prices-are-strings"}, "reason": {"only in the spike"}}, "msg=rejected",
			func(fx *fixture) string {
				return notDraft(fx, "prices-are-strings") + notInVault(fx, "prices-are-strings") + inFile(filepath.Join(fx.state, "rejected.jsonl"), "only in the spike")
			}},
		{"no draft selected", "/inbox", url.Values{"action": {"approve"}}, "err=select", func(*fixture) string { return "" }},
		{"unknown draft", "/inbox", url.Values{"action": {"approve"}, "name": {"nope"}}, "err=", func(*fixture) string { return "" }},
		{"edit then approve", "/inbox/prices-are-strings/edit", url.Values{"description": {"Prices are strings; use Number()"}, "body": {"Edited body.\r\n"}}, "msg=approved",
			func(fx *fixture) string { return inVault(fx, "prices-are-strings", "Edited body.\n") }},
		{"edit refused: empty description", "/inbox/prices-are-strings/edit", url.Values{"description": {""}, "body": {"x"}}, "err=",
			func(fx *fixture) string {
				return notInVault(fx, "prices-are-strings") + isDraft(fx, "prices-are-strings")
			}},
		{"edit refused: a secret", "/inbox/prices-are-strings/edit", url.Values{"description": {"Key"}, "body": {"AWS key AKIAIOSFODNN7EXAMPLE here"}}, "err=",
			func(fx *fixture) string {
				return notInVault(fx, "prices-are-strings") + isDraft(fx, "prices-are-strings")
			}},
		{"keep old", "/inbox/deploy-with-just/resolve", url.Values{"keep": {"old"}}, "msg=resolved",
			func(fx *fixture) string {
				return notInVault(fx, "deploy-with-just") + notDraft(fx, "deploy-with-just") + status(fx, "deploy-with-make", memory.StatusActive, "")
			}},
		{"keep new", "/inbox/deploy-with-just/resolve", url.Values{"keep": {"new"}}, "msg=resolved",
			func(fx *fixture) string {
				return inVault(fx, "deploy-with-just", "") + status(fx, "deploy-with-make", memory.StatusSuperseded, "deploy-with-just")
			}},
		{"keep both", "/inbox/deploy-with-just/resolve", url.Values{"keep": {"both"}}, "msg=resolved",
			func(fx *fixture) string {
				return inVault(fx, "deploy-with-just", "") + status(fx, "deploy-with-make", memory.StatusActive, "")
			}},
		{"resolve what is no contradiction", "/inbox/prices-are-strings/resolve", url.Values{"keep": {"new"}}, "err=",
			func(fx *fixture) string { return isDraft(fx, "prices-are-strings") }},
		{"delete", "/m/project/ci-runs-on-main/delete", nil, "msg=removed",
			func(fx *fixture) string {
				return notInVault(fx, "ci-runs-on-main") + kept(fx, "ci-runs-on-main", "name: ci-runs-on-main") + inFile(filepath.Join(fx.dir, "MEMORY.md"), "deploy-with-make")
			}},
		{"rename rewrites links", "/m/project/ci-runs-on-main/rename", url.Values{"to": {"ci-on-main"}}, "msg=renamed",
			func(fx *fixture) string {
				return notInVault(fx, "ci-runs-on-main") + inVault(fx, "ci-on-main", "") + inVault(fx, "deploy-with-make", "[[ci-on-main]]")
			}},
		{"rename to a taken name", "/m/project/ci-runs-on-main/rename", url.Values{"to": {"deploy-with-make"}}, "err=",
			func(fx *fixture) string { return inVault(fx, "ci-runs-on-main", "") }},
		{"rename to a bad name", "/m/project/ci-runs-on-main/rename", url.Values{"to": {"../x"}}, "err=",
			func(fx *fixture) string { return inVault(fx, "ci-runs-on-main", "") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(t)
			w := fx.do(req{method: "POST", path: tt.path, form: tt.form})
			if w.Code != http.StatusSeeOther || !strings.Contains(w.Header().Get("Location"), tt.msg) {
				t.Errorf("POST %s: %d to %q, want 303 with %q: %s", tt.path, w.Code, w.Header().Get("Location"), tt.msg, w.Body)
			}
			if bad := tt.check(fx); bad != "" {
				t.Error(bad)
			}
		})
	}
}

// TestMemoryEdit edits a memory's file through the page as 'mnemo edit' does.
func TestMemoryEdit(t *testing.T) {
	tests := []struct {
		name   string
		edit   func(text string) string
		before func(text string) string
		msg    string
		body   string // in the file after
	}{
		{"saved", func(s string) string { return strings.Replace(s, "root;", "repository root;", 1) }, nil, "msg=saved", "repository root;"},
		{"relative date made absolute", func(s string) string { return strings.Replace(s, "Run", "Since yesterday run", 1) }, nil, "msg=saved", "Since 2026-11-29"},
		{"invalid header", func(s string) string { return strings.Replace(s, "type: project", "type: nonsense", 1) }, nil, "err=", "make deploy"},
		{"a changed name", func(s string) string { return strings.Replace(s, "name: deploy-with-make", "name: other", 1) }, nil, "err=", "make deploy"},
		{"a secret", func(s string) string { return s + "token ghp_" + strings.Repeat("a1B2", 9) + "\n" }, nil, "err=", "make deploy"},
		{"changed meanwhile", func(s string) string { return s + "mine\n" }, func(s string) string { return s + "old\n" }, "err=", "make deploy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fx := newFixture(t)
			m, _ := fx.v.Load("deploy-with-make")
			text := string(m.Render())
			before := text
			if tt.before != nil {
				before = tt.before(text)
			}
			w := fx.do(req{method: "POST", path: "/m/project/deploy-with-make/edit", form: url.Values{"text": {tt.edit(text)}, "before": {before}}})
			if w.Code != http.StatusSeeOther || !strings.Contains(w.Header().Get("Location"), tt.msg) {
				t.Errorf("got %d to %q, want %q", w.Code, w.Header().Get("Location"), tt.msg)
			}
			if bad := inVault(fx, "deploy-with-make", tt.body); bad != "" {
				t.Error(bad)
			}
			if tt.msg == "err=" && strings.Contains(mustRead(fx.v.Path("deploy-with-make")), "mine") {
				t.Errorf("a refused edit was written")
			}
		})
	}
}

// TestMemoryEditNoChange: saving the page's editor unchanged leaves the
// file byte for byte as it was, as 'mnemo edit' does, and says so.
func TestMemoryEditNoChange(t *testing.T) {
	fx := newFixture(t)
	m, _ := fx.v.Load("deploy-with-make")
	was := mustRead(fx.v.Path("deploy-with-make"))
	text := string(m.Render())
	w := fx.do(req{method: "POST", path: "/m/project/deploy-with-make/edit", form: url.Values{"text": {text}, "before": {text}}})
	if loc := w.Header().Get("Location"); w.Code != http.StatusSeeOther || !strings.Contains(loc, "msg=no+change") {
		t.Errorf("got %d to %q, want 303 with msg=no+change", w.Code, loc)
	}
	if got := mustRead(fx.v.Path("deploy-with-make")); got != was {
		t.Errorf("an unchanged edit rewrote the file:\n%s\nwas\n%s", got, was)
	}
}

func mustRead(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

func inFile(path, want string) string {
	if got := mustRead(path); !strings.Contains(got, want) {
		return path + ": no " + want + " in:\n" + got + "\n"
	}
	return ""
}

func inVault(fx *fixture, name, want string) string {
	if _, err := os.Stat(fx.v.Path(name)); err != nil {
		return name + " is not in the vault\n"
	}
	return inFile(fx.v.Path(name), want)
}

func notInVault(fx *fixture, name string) string {
	if _, err := os.Stat(fx.v.Path(name)); err == nil {
		return name + " is in the vault\n"
	}
	return ""
}

// kept says what is wrong unless a memory removed from the vault is kept
// in the state folder's forgotten/, holding want.
func kept(fx *fixture, name, want string) string {
	files, _ := filepath.Glob(filepath.Join(fx.state, vault.ForgottenDir, name+".*.md"))
	if len(files) != 1 {
		return fmt.Sprintf("%d copies of %s kept in forgotten/, want 1\n", len(files), name)
	}
	return inFile(files[0], want)
}

func isDraft(fx *fixture, name string) string {
	if _, err := fx.in.Load(name); err != nil {
		return name + " is no longer a draft\n"
	}
	return ""
}

func notDraft(fx *fixture, name string) string {
	if _, err := fx.in.Load(name); err == nil {
		return name + " is still a draft\n"
	}
	return ""
}

func status(fx *fixture, name string, want memory.Status, by string) string {
	m, err := fx.v.Load(name)
	if err != nil {
		return err.Error()
	}
	if m.Status != want || m.SupersededBy != by {
		return name + ": status " + string(m.Status) + " by " + m.SupersededBy + ", want " + string(want) + " by " + by + "\n"
	}
	return ""
}

// TestRecallCounts: the index's recall counts sort the memories and show
// on a memory's page.
func TestRecallCounts(t *testing.T) {
	fx := newFixture(t)
	fx.srv.cfg.Docs = func(context.Context) ([]index.Doc, error) {
		return []index.Doc{{Key: index.Key{Source: "project", Name: "ci-runs-on-main"}, Recalls: 7, LastRecalled: now}}, nil
	}
	body := fx.do(req{path: "/memories?sort=recalls"}).Body.String()
	ci, deploy := strings.Index(body, `href="/m/project/ci-runs-on-main"`), strings.Index(body, `href="/m/project/deploy-with-make"`)
	if ci < 0 || deploy < 0 || ci > deploy {
		t.Errorf("sorted by recalls, ci-runs-on-main (7) is not first: at %d, deploy-with-make at %d", ci, deploy)
	}
	if body := fx.do(req{path: "/m/project/ci-runs-on-main"}).Body.String(); !strings.Contains(body, "7 times, last 2026-11-30") {
		t.Errorf("the memory page does not say how often it was recalled")
	}
}

// TestInboxSimilar: a draft shows the memories closest to it, found by
// recall as consolidation looks for them.
func TestInboxSimilar(t *testing.T) {
	fx := newFixture(t)
	fx.srv.cfg.Search = fx.recall
	fx.draft("deploy-needs-gnu-make", "Deploy needs GNU make installed", "`make deploy` fails with BSD make.")
	body := fx.do(req{path: "/"}).Body.String()
	i := strings.Index(body, `id="d-deploy-needs-gnu-make"`)
	if i < 0 {
		t.Fatal("the draft is not in the inbox")
	}
	if !strings.Contains(body[i:], `Similar: <a href="/m/project/deploy-with-make">deploy-with-make</a>`) {
		t.Errorf("the draft does not show deploy-with-make as similar:\n%s", body[i:min(len(body), i+2000)])
	}

	// A draft that shares one word with a memory ("main"), or a year, is
	// like none of them.
	fx.draft("branch-names", "Feature branches are named after main's next release, 2026", "Cut them from main.")
	body = fx.do(req{path: "/"}).Body.String()
	i = strings.Index(body, `id="d-branch-names"`)
	if i < 0 {
		t.Fatal("the draft is not in the inbox")
	}
	card := body[i:]
	if j := strings.Index(card[1:], `id="d-`); j >= 0 {
		card = card[:j+1]
	}
	if strings.Contains(card, "Similar:") {
		t.Errorf("a draft sharing one word with a memory shows it as similar:\n%s", card)
	}
}
