package consolidate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

var t0 = time.Date(2026, 11, 30, 10, 0, 0, 0, time.UTC)

type env struct {
	c   *Consolidator
	ctx context.Context
}

func setup(t *testing.T) *env {
	t.Helper()
	ctx := context.Background()
	root, state, user := t.TempDir(), t.TempDir(), t.TempDir()
	pdir := filepath.Join(root, ".memory")
	for _, d := range []string{pdir, user} {
		if _, err := vault.Create(d); err != nil {
			t.Fatal(err)
		}
	}
	pv, _ := vault.Open(pdir, filepath.Join(state, "vault.lock"))
	uv, _ := vault.Open(user, filepath.Join(state, "user.lock"))
	db, err := index.Open(ctx, filepath.Join(state, "index.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	in, err := OpenInbox(state)
	if err != nil {
		t.Fatal(err)
	}
	return &env{ctx: ctx, c: &Consolidator{Project: pv, User: uv, Inbox: in, Index: db, Root: root, Cwd: root, Now: t0}}
}

// add adds f and moves the clock on.
func (e *env) add(t *testing.T, f Fact) Outcome {
	t.Helper()
	o, err := e.c.Add(e.ctx, f)
	if err != nil {
		t.Fatal(err)
	}
	e.c.Now = e.c.Now.Add(time.Hour)
	return o
}

func (e *env) count(t *testing.T) (vaultN, drafts int) {
	entries, _ := e.c.Project.List()
	ds, _ := e.c.Inbox.List()
	return len(entries), len(ds)
}

var pnpm = Fact{
	Description: "The web frontend uses pnpm as its package manager",
	Body:        "Install packages in web/ with pnpm add; the lockfile is pnpm-lock.yaml.",
	Type:        memory.TypeFeedback, Confidence: 0.9, Source: "session:s1", Why: "The user said so.",
}

func TestDuplicatesDoNotMultiply(t *testing.T) {
	e := setup(t)
	if o := e.add(t, pnpm); o.Action != Added || o.Where != "project" {
		t.Fatalf("first = %+v, want added to project", o)
	}
	again := pnpm
	again.Source = "session:s2"
	again.Confidence = 0.95
	o := e.add(t, again)
	if o.Action != Duplicate || o.Existing != o.Name {
		t.Fatalf("second = %+v, want duplicate", o)
	}
	if n, d := e.count(t); n != 1 || d != 0 {
		t.Errorf("vault holds %d memories and %d drafts, want 1 and 0", n, d)
	}
	m, _ := e.c.Project.Load(o.Name)
	if m.Confidence != 0.95 || !m.Updated.After(m.Created) || m.Source != "session:s1" {
		t.Errorf("duplicate updated %+v; want only confidence and updated changed", m.Header)
	}
}

func TestRefinementUpdatesInPlace(t *testing.T) {
	e := setup(t)
	first := e.add(t, pnpm)
	better := Fact{
		Description: "The web frontend uses pnpm as its package manager, pinned to pnpm 9",
		Body:        "Install packages in web/ with pnpm add; pnpm 9 is pinned in packageManager, so corepack picks it.",
		Type:        memory.TypeFeedback, Confidence: 0.9, Source: "session:s3",
	}
	o := e.add(t, better)
	if o.Action != Refined || o.Name != first.Name {
		t.Fatalf("refinement = %+v, want refined %s", o, first.Name)
	}
	m, _ := e.c.Project.Load(first.Name)
	if !strings.Contains(m.Body, "corepack") || !m.Created.Equal(t0) || m.Source != "session:s3" {
		t.Errorf("after refinement: %+v body %q; want the new body and the first created", m.Header, m.Body)
	}
	if n, _ := e.count(t); n != 1 {
		t.Errorf("vault holds %d memories, want 1", n)
	}
}

func TestContradictionNeverDeletes(t *testing.T) {
	e := setup(t)
	first := e.add(t, pnpm)
	o := e.add(t, Fact{
		Description: "The web frontend does not use pnpm any more; it uses npm as its package manager",
		Body:        "Install packages in web/ with npm; pnpm was dropped.",
		Type:        memory.TypeFeedback, Confidence: 0.95, Source: "session:s4",
	})
	if o.Action != Contradiction || o.Existing != first.Name || o.Where != "inbox" {
		t.Fatalf("contradiction = %+v", o)
	}
	if _, err := e.c.Project.Load(first.Name); err != nil {
		t.Errorf("the contradicted memory is gone: %v", err)
	}
	d, err := e.c.Inbox.Load(o.Name)
	if err != nil || !strings.Contains(d.Body, "Contradicts [["+first.Name+"]]") {
		t.Errorf("the draft does not link the memory it contradicts: %v %q", err, d.Body)
	}
}

func TestDraftsAndRejection(t *testing.T) {
	e := setup(t)
	low := Fact{Description: "Run the integration tests with make itest", Body: "make itest starts Postgres first.", Confidence: 0.6, Source: "session:s1"}
	if o := e.add(t, low); o.Action != Drafted {
		t.Fatalf("low confidence = %+v, want drafted", o)
	}
	tool := Fact{Description: "The API rate limit is 100 requests a minute", Body: "From the fetched docs page.", Confidence: 0.99, FromToolOutput: true}
	o := e.add(t, tool)
	if o.Action != Drafted {
		t.Fatalf("a fact from tool output = %+v, want drafted however confident", o)
	}
	if err := e.c.Inbox.Reject(o.Name, "not durable", t0); err != nil {
		t.Fatal(err)
	}
	if o := e.add(t, tool); o.Action != Rejected {
		t.Errorf("a rejected fact proposed again = %+v, want rejected", o)
	}
	// Approving moves the draft into the vault and its index.
	drafts, _ := e.c.Inbox.List()
	if len(drafts) != 1 {
		t.Fatalf("inbox = %d drafts, want 1", len(drafts))
	}
	name, err := e.c.Inbox.Approve(e.ctx, e.c.Project, drafts[0].Name, t0, nil)
	if err != nil {
		t.Fatal(err)
	}
	index, _ := os.ReadFile(filepath.Join(e.c.Project.Dir, vault.IndexFile))
	if !strings.Contains(string(index), "["+name+"]") {
		t.Errorf("MEMORY.md does not list the approved %s:\n%s", name, index)
	}
	if ds, _ := e.c.Inbox.List(); len(ds) != 0 {
		t.Errorf("the approved draft is still in the inbox")
	}
}

func TestUserFactsGoToTheUserVault(t *testing.T) {
	e := setup(t)
	o := e.add(t, Fact{Description: "The user is a backend engineer who prefers Go", Body: "Mostly Go and PostgreSQL.", Type: memory.TypeUser, Confidence: 1})
	if o.Action != Added || o.Where != "user" {
		t.Fatalf("user fact = %+v", o)
	}
	if _, err := e.c.User.Load(o.Name); err != nil {
		t.Errorf("not in the user vault: %v", err)
	}
}

func TestAnchorsAndDates(t *testing.T) {
	e := setup(t)
	os.WriteFile(filepath.Join(e.c.Root, "go.mod"), []byte("module x\n"), 0o644)
	o := e.add(t, Fact{Description: "The module path is x", Body: "Rename it next month.", Files: []string{"go.mod", "missing.go"}, Confidence: 1})
	m, _ := e.c.Project.Load(o.Name)
	if len(m.Anchors.Files) != 1 || m.Anchors.Files[0].Path != "go.mod" {
		t.Errorf("anchors = %+v, want go.mod only", m.Anchors)
	}
	if !strings.Contains(m.Body, "2026-12") {
		t.Errorf("relative date not made absolute: %q", m.Body)
	}
}

// TestMachineText: what an extractor produced (a why over two lines, a
// terminal's colors in a body) is cleaned, not refused: one odd fact must
// not fail the job that carries it.
func TestMachineText(t *testing.T) {
	e := setup(t)
	o := e.add(t, Fact{Description: "The build\tprints \x1b[31mred\x1b[0m errors", Body: "Run `make`:\r\n\x1b[31merror\x1b[0m means a lint failure.\x00",
		Why: "The user said so\nin turn 4.", Type: memory.TypeProject, Confidence: 1, Source: "session:s1"})
	m, err := e.c.Project.Load(o.Name)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Validate(""); err != nil {
		t.Errorf("the memory written does not validate: %v", err)
	}
	if m.Why != "The user said so in turn 4." || m.Body != "Run `make`:\n[31merror[0m means a lint failure.\n" {
		t.Errorf("why %q, body %q", m.Why, m.Body)
	}
}
