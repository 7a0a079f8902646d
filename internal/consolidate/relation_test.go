package consolidate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/memory"
)

// stagingHost is a vault memory the relation tests set candidates against.
var stagingHost = Fact{
	Stated: true, Description: "The staging database host is db-staging.internal on port 5432",
	Body: "Connect to db-staging.internal:5432 for staging.", Type: memory.TypeProject, Confidence: 0.9, Source: "session:s1",
}

// TestStatedRelation: what an extractor says of a fact and a memory it was
// shown is applied when the values allow it, and overruled when they do
// not. Each case is run twice: without the relation (what consolidation
// finds on its own) and with it.
func TestStatedRelation(t *testing.T) {
	tests := []struct {
		name     string
		fact     Fact
		kind     string
		memory   string // "" names the first memory
		alone    Action // without the relation
		want     Action
		wantLink LinkKind
	}{
		{
			name: "same: a paraphrase with the same values is a duplicate",
			fact: Fact{Description: "Staging DB: db-staging.internal, 5432", Body: "Use that host and port when testing against staging data.",
				Type: memory.TypeProject, Confidence: 0.7},
			kind: RelationSame, alone: Drafted, want: Duplicate,
		},
		{
			name: "same, but the values differ: never merged",
			fact: Fact{Description: "The production database host is db-prod.internal on port 5432", Body: "Connect to db-prod.internal:5432 for production.",
				Type: memory.TypeProject, Confidence: 0.7},
			kind: RelationSame, alone: Drafted, want: Drafted,
		},
		{
			name: "same, another fact of the same host and port: never merged",
			fact: Fact{Description: "Never run migrations against db-staging.internal:5432 during business hours", Body: "Migrations lock the tables; run them at night.",
				Type: memory.TypeProject, Confidence: 0.7},
			kind: RelationSame, alone: Drafted, want: Drafted,
		},
		{
			name: "same, what is done to the staging host: never merged",
			fact: Fact{Description: "Staging on db-staging.internal:5432 is wiped every night", Body: "Do not keep test data there.",
				Type: memory.TypeProject, Confidence: 0.7},
			kind: RelationSame, alone: Drafted, want: Drafted,
		},
		{
			name: "same, another port: a contradiction, not a duplicate",
			fact: Fact{Description: "The staging database host is db-staging.internal on port 6432", Body: "Connect to db-staging.internal:6432 for staging.",
				Type: memory.TypeProject, Confidence: 0.7},
			kind: RelationSame, alone: Contradiction, want: Contradiction, wantLink: LinkContradicts,
		},
		{
			name: "update that changes a value: proposed, linked, the memory kept",
			fact: Fact{Description: "Staging moved: its database is now db-staging2.internal, port 5432", Body: "The old db-staging.internal host is gone since the migration.",
				Type: memory.TypeProject, Confidence: 0.9, Stated: true},
			kind: RelationUpdate, alone: Added, want: Proposed, wantLink: LinkChanges,
		},
		{
			name: "contradicts: a draft linked to the memory",
			fact: Fact{Description: "Staging tests must not use the staging database host directly", Body: "Go through the pgbouncer in front of it instead.",
				Type: memory.TypeProject, Confidence: 0.7},
			kind: RelationContradicts, alone: Drafted, want: Contradiction, wantLink: LinkContradicts,
		},
		{
			name: "a name that was not a memory: own rules",
			fact: Fact{Description: "Staging DB: db-staging.internal, 5432", Body: "Use that host and port when testing against staging data.",
				Type: memory.TypeProject, Confidence: 0.7},
			kind: RelationSame, memory: "no-such-memory", alone: Drafted, want: Drafted,
		},
		{
			name: "new, when the rules find the same fact: a duplicate",
			fact: stagingHost,
			kind: RelationNew, alone: Duplicate, want: Duplicate,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, stated := range []bool{false, true} {
				e := setup(t)
				first := e.add(t, stagingHost)
				if first.Action != Added {
					t.Fatalf("setup: %+v", first)
				}
				f, want := tt.fact, tt.alone
				if stated {
					name := tt.memory
					if name == "" {
						name = first.Name
					}
					f.Relation, want = Relation{Kind: tt.kind, Memory: name, Where: "project"}, tt.want
				}
				o := e.add(t, f)
				if o.Action != want {
					t.Fatalf("relation given %v: %+v, want %s", stated, o, want)
				}
				if m, err := e.c.Project.Load(first.Name); err != nil || !strings.Contains(m.Body, "db-staging.internal:5432") {
					t.Errorf("the memory changed: %v %+v", err, m)
				}
				if !stated || tt.wantLink == "" {
					continue
				}
				if l, err := e.c.Inbox.LinkOf(o.Name); err != nil || l.Memory != first.Name || l.Kind != tt.wantLink {
					t.Errorf("link of %s = %+v, %v; want %s to %s", o.Name, l, err, tt.wantLink, first.Name)
				}
			}
		})
	}
}

// TestStatedUpdateExtends: an update that keeps every value of a memory the
// person stated and adds detail extends it in place, as the rules would.
func TestStatedUpdateExtends(t *testing.T) {
	e := setup(t)
	first := e.add(t, pnpm)
	f := pnpmPinned
	f.Stated, f.Relation = true, Relation{Kind: RelationUpdate, Memory: first.Name, Where: "project"}
	if o := e.add(t, f); o.Action != Extended || o.Name != first.Name {
		t.Fatalf("update = %+v, want extended %s", o, first.Name)
	}
}

// TestPrefer: a same fact or a contradiction the rules found in another
// memory stands against what the extractor named; otherwise the named
// memory decides.
func TestPrefer(t *testing.T) {
	a, b := &memory.Memory{}, &memory.Memory{}
	named := match{name: "a", where: "project", mem: a, rel: same}
	tests := []struct {
		name string
		own  match
		want string
	}{
		{"nothing found", match{}, "a"},
		{"another memory, different", match{name: "b", where: "project", mem: b, rel: different}, "a"},
		{"another memory, extended", match{name: "b", where: "project", mem: b, rel: extends}, "a"},
		{"another memory, the same fact", match{name: "b", where: "project", mem: b, rel: same}, "b"},
		{"another memory, contradicted", match{name: "b", where: "project", mem: b, rel: contradicts}, "b"},
		{"the named memory itself", match{name: "a", where: "project", mem: a, rel: contradicts}, "a"},
	}
	for _, tt := range tests {
		if got := prefer(tt.own, named); got.name != tt.want {
			t.Errorf("%s: prefer = %s, want %s", tt.name, got.name, tt.want)
		}
	}
}

// TestRelationToAMountedMemory: a mounted vault is read-only and its
// memories are not consolidation's to change; an extractor's relation to
// one (Where is the mount's name) never reaches the project or user
// memory of the same name. Each kind gives what consolidation decides
// without it, and the project memory keeps its bytes.
func TestRelationToAMountedMemory(t *testing.T) {
	nightly := Fact{Description: "The staging database is reset every night at 02:00, and on Sundays at noon",
		Body: "Staging data is wiped by the nightly reset; keep nothing there.", Type: memory.TypeProject, Confidence: 0.9, Stated: true}
	tests := []struct {
		name, kind string
		fact       Fact
	}{
		{"update", RelationUpdate, nightly},
		{"contradicts", RelationContradicts, nightly},
		{"same", RelationSame, nightly},
		{"update, of a user fact", RelationUpdate, Fact{Description: nightly.Description, Body: nightly.Body, Type: memory.TypeUser, Confidence: 0.9, Stated: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got [2]Outcome
			for i, where := range []string{"", "team"} {
				e := setup(t)
				first := e.add(t, stagingHost)
				team := t.TempDir()
				mounted := memory.New(memory.Header{Name: first.Name, Description: "The staging database is reset every night at 02:00",
					Type: memory.TypeProject, Source: "manual", Confidence: 1, Created: t0}, "Nightly reset of the staging data.")
				if err := os.WriteFile(filepath.Join(team, first.Name+".md"), mounted.Render(), 0o644); err != nil {
					t.Fatal(err)
				}
				if _, err := e.c.Index.Sync(e.ctx, index.Source{Name: "team", Dir: team}); err != nil {
					t.Fatal(err)
				}
				path := filepath.Join(e.c.Project.Dir, first.Name+".md")
				before, _ := os.ReadFile(path)
				f := tt.fact
				if where != "" {
					f.Relation = Relation{Kind: tt.kind, Memory: first.Name, Where: where}
				}
				got[i] = e.add(t, f)
				if after, _ := os.ReadFile(path); string(after) != string(before) {
					t.Errorf("relation to %q: the project memory changed:\n%s", where, after)
				}
				if l, err := e.c.Inbox.LinkOf(got[i].Name); where != "" && err == nil && l.Memory == first.Name {
					t.Errorf("relation to %q: %s is linked to the project memory as %s", where, got[i].Name, l.Kind)
				}
			}
			if got[1].Action != got[0].Action || got[1].Existing != got[0].Existing {
				t.Errorf("with the mounted relation: %+v; without it: %+v", got[1], got[0])
			}
		})
	}
}
