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

func setup(t testing.TB) *env {
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
	return &env{ctx: ctx, c: &Consolidator{Project: pv, User: uv, Inbox: in.LockWith(pv), Index: db, Root: root, Cwd: root, Now: t0}}
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
	Stated:      true,
	Description: "The web frontend uses pnpm as its package manager",
	Body:        "Install packages in web/ with pnpm add; the lockfile is pnpm-lock.yaml.",
	Type:        memory.TypeFeedback, Confidence: 0.9, Source: "session:s1", Why: "The user said so.",
}

func TestDuplicatesDoNotMultiply(t *testing.T) {
	e := setup(t)
	first := e.add(t, pnpm)
	if first.Action != Added || first.Where != "project" {
		t.Fatalf("first = %+v, want added to project", first)
	}
	before, _ := os.ReadFile(e.c.Project.Path(first.Name))
	again := pnpm
	again.Source = "session:s2"
	again.Confidence = 0.95
	o := e.add(t, again)
	if o.Action != Duplicate || o.Existing != first.Name || o.Name != first.Name {
		t.Fatalf("second = %+v, want a duplicate of %s", o, first.Name)
	}
	if n, d := e.count(t); n != 1 || d != 0 {
		t.Errorf("vault holds %d memories and %d drafts, want 1 and 0", n, d)
	}
	if after, _ := os.ReadFile(e.c.Project.Path(o.Name)); string(after) != string(before) {
		t.Errorf("the duplicate rewrote the committed file:\n%s\nwas:\n%s", after, before)
	}
	s, err := e.c.Inbox.Sightings(o.Name)
	if err != nil || len(s) != 1 || s[0].Source != "session:s2" || s[0].Confidence != 0.95 || s[0].Action != Duplicate {
		t.Errorf("Sightings(%s) = %+v, %v; want the second statement's provenance", o.Name, s, err)
	}
}

// pnpmPinned extends pnpm: every word and value of it, and more detail.
var pnpmPinned = Fact{
	Stated:      true,
	Description: "The web frontend uses pnpm as its package manager, pinned to pnpm 9",
	Body:        "Install packages in web/ with pnpm add; the lockfile is pnpm-lock.yaml. pnpm 9 is pinned in packageManager, so corepack picks it.",
	Type:        memory.TypeFeedback, Confidence: 0.9, Source: "session:s3",
}

func TestExtensionUpdatesInPlace(t *testing.T) {
	e := setup(t)
	first := e.add(t, pnpm)
	o := e.add(t, pnpmPinned)
	if o.Action != Extended || o.Name != first.Name {
		t.Fatalf("extension = %+v, want extended %s", o, first.Name)
	}
	m, _ := e.c.Project.Load(first.Name)
	if !strings.Contains(m.Body, "corepack") || !m.Created.Equal(t0) || m.Source != "session:s1" {
		t.Errorf("after extension: %+v body %q; want the new body, the first created and source", m.Header, m.Body)
	}
	if n, _ := e.count(t); n != 1 {
		t.Errorf("vault holds %d memories, want 1", n)
	}
	if s, _ := e.c.Inbox.Sightings(first.Name); len(s) != 1 || s[0].Source != "session:s3" || s[0].Action != Extended {
		t.Errorf("sightings of %s = %+v, want the extension's provenance", first.Name, s)
	}
}

// TestRewordingThatDropsADetailIsANewFact: before, a 40 % word overlap
// replaced the memory's text, and "the lockfile is pnpm-lock.yaml" was
// lost. Now only a statement that keeps every value extends a memory.
func TestRewordingThatDropsADetailIsANewFact(t *testing.T) {
	e := setup(t)
	first := e.add(t, pnpm)
	o := e.add(t, Fact{
		Stated:      true,
		Description: "The web frontend uses pnpm as its package manager, pinned to pnpm 9",
		Body:        "Install packages in web/ with pnpm add; pnpm 9 is pinned in packageManager, so corepack picks it.",
		Type:        memory.TypeFeedback, Confidence: 0.9, Source: "session:s3",
	})
	if o.Action != Added || o.Name == first.Name {
		t.Fatalf("rewording = %+v, want a new memory", o)
	}
	if m, _ := e.c.Project.Load(first.Name); !strings.Contains(m.Body, "pnpm-lock.yaml") {
		t.Errorf("%s lost its lockfile: %q", first.Name, m.Body)
	}
}

// TestLowConfidenceExtensionIsProposed: an extension that may not change
// the vault on its own is a draft naming the memory it would change, and
// approving it changes that memory.
func TestLowConfidenceExtensionIsProposed(t *testing.T) {
	e := setup(t)
	first := e.add(t, pnpm)
	before, _ := os.ReadFile(e.c.Project.Path(first.Name))
	low := pnpmPinned
	low.Confidence = 0.6
	o := e.add(t, low)
	if o.Action != Proposed || o.Existing != first.Name || o.Where != "inbox" {
		t.Fatalf("low-confidence extension = %+v, want proposed against %s", o, first.Name)
	}
	if after, _ := os.ReadFile(e.c.Project.Path(first.Name)); string(after) != string(before) {
		t.Errorf("the proposal changed %s:\n%s", first.Name, after)
	}
	link, err := e.c.Inbox.LinkOf(o.Name)
	if err != nil || link.Kind != LinkChanges || link.Memory != first.Name || link.Where != "project" {
		t.Errorf("LinkOf(%s) = %+v, %v; want it to change %s", o.Name, link, err, first.Name)
	}
	if ls, _ := e.c.Inbox.LinksTo(first.Name); len(ls) != 1 || ls[0].Draft != o.Name {
		t.Errorf("LinksTo(%s) = %+v, want the proposal", first.Name, ls)
	}
	got, err := e.c.Inbox.Approve(e.ctx, e.c.Project, o.Name, t0, nil)
	if err != nil || got != first.Name {
		t.Fatalf("Approve(%s) = %q, %v; want it to change %s", o.Name, got, err, first.Name)
	}
	if m, _ := e.c.Project.Load(first.Name); !strings.Contains(m.Body, "corepack") {
		t.Errorf("the approved change is not in %s: %q", first.Name, m.Body)
	}
	if n, d := e.count(t); n != 1 || d != 0 {
		t.Errorf("after approving: %d memories, %d drafts; want 1 and 0", n, d)
	}
	if ls, _ := e.c.Inbox.LinksTo(first.Name); len(ls) != 0 {
		t.Errorf("the approved proposal is still linked: %+v", ls)
	}
}

func TestContradictionNeverDeletes(t *testing.T) {
	e := setup(t)
	first := e.add(t, pnpm)
	o := e.add(t, Fact{
		Stated:      true,
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
	// The other way: the memory's side of the link is kept in state.
	if ls, err := e.c.Inbox.LinksTo(first.Name); err != nil || len(ls) != 1 || ls[0].Draft != o.Name || ls[0].Kind != LinkContradicts {
		t.Errorf("LinksTo(%s) = %+v, %v; want the contradicting draft %s", first.Name, ls, err, o.Name)
	}
	if err := e.c.Inbox.Reject(e.ctx, o.Name, "", t0); err != nil {
		t.Fatal(err)
	}
	if ls, _ := e.c.Inbox.LinksTo(first.Name); len(ls) != 0 {
		t.Errorf("a rejected draft is still linked: %+v", ls)
	}
}

// TestRejectionBlocksParaphrases: a rejected fact said again in other
// words, with the same values, is not proposed again; the same words with
// another value are another fact.
func TestRejectionBlocksParaphrases(t *testing.T) {
	rejected := Fact{Description: "The gadget port for service hk3 is 93", Body: "Found in the service's config.", Confidence: 0.6, Source: "session:s1"}
	tests := []struct {
		kind string
		f    Fact
		want Action
	}{
		{"said again", rejected, Rejected},
		{"reworded", Fact{Description: "Service hk3 listens for gadgets on port 93", Body: "Seen in its config.", Confidence: 0.6}, Rejected},
		{"another service", Fact{Description: "The gadget port for service hk4 is 94", Body: "Found in the service's config.", Confidence: 0.6}, Drafted},
		{"another port", Fact{Description: "The gadget port for service hk3 is 193", Body: "Found in the service's config.", Confidence: 0.6}, Drafted},
		{"another environment", Fact{Description: "The staging gadget port for service hk3 is 93", Body: "Found in the service's config.", Confidence: 0.6}, Drafted},
	}
	for _, tt := range tests {
		t.Run(tt.kind, func(t *testing.T) {
			e := setup(t)
			o := e.add(t, rejected)
			if err := e.c.Inbox.Reject(e.ctx, o.Name, "wrong", t0); err != nil {
				t.Fatal(err)
			}
			if got := e.add(t, tt.f); got.Action != tt.want {
				t.Errorf("after rejecting %q, Add(%q) = %+v, want %s", rejected.Description, tt.f.Description, got, tt.want)
			}
		})
	}
}

func TestDraftsAndRejection(t *testing.T) {
	e := setup(t)
	low := Fact{Stated: true, Description: "Run the integration tests with make itest", Body: "make itest starts Postgres first.", Confidence: 0.6, Source: "session:s1"}
	if o := e.add(t, low); o.Action != Drafted {
		t.Fatalf("low confidence = %+v, want drafted", o)
	}
	tool := Fact{Stated: true, Description: "The API rate limit is 100 requests a minute", Body: "From the fetched docs page.", Confidence: 0.99, FromToolOutput: true}
	o := e.add(t, tool)
	if o.Action != Drafted {
		t.Fatalf("a fact from tool output = %+v, want drafted however confident", o)
	}
	if err := e.c.Inbox.Reject(e.ctx, o.Name, "not durable", t0); err != nil {
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
	o := e.add(t, Fact{Stated: true, Description: "The user is a backend engineer who prefers Go", Body: "Mostly Go and PostgreSQL.", Type: memory.TypeUser, Confidence: 1})
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
	o := e.add(t, Fact{Stated: true, Description: "The module path is x", Body: "Rename it next month.", Files: []string{"go.mod", "missing.go"}, Confidence: 1})
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
	o := e.add(t, Fact{Stated: true, Description: "The build\tprints \x1b[31mred\x1b[0m errors", Body: "Run `make`:\r\n\x1b[31merror\x1b[0m means a lint failure.\x00",
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

// TestAnchorsSkipALinkOut: a fact naming a file and a symlink that leads
// out of the repository keeps the file's anchor; the link is not followed.
func TestAnchorsSkipALinkOut(t *testing.T) {
	e := setup(t)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(outside, []byte("outside\n"), 0o644)
	os.WriteFile(filepath.Join(e.c.Root, "go.mod"), []byte("module x\n"), 0o644)
	if err := os.Symlink(outside, filepath.Join(e.c.Root, "link.txt")); err != nil {
		t.Fatal(err)
	}
	f := Fact{Description: "The module path is x", Body: "See go.mod.", Files: []string{"link.txt", "go.mod"}, Confidence: 1}
	m, err := e.c.normalize(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Anchors.Files) != 1 || m.Anchors.Files[0].Path != "go.mod" {
		t.Errorf("anchors = %+v, want go.mod only", m.Anchors)
	}
}
