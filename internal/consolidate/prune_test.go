package consolidate

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// known returns a [Names] that gives names.
func known(names ...string) Names {
	return func() (map[string]bool, error) {
		out := map[string]bool{}
		for _, n := range names {
			out[n] = true
		}
		return out, nil
	}
}

// putDraft writes a draft created at created into in.
func putDraft(t testing.TB, in *Inbox, name string, created time.Time) {
	t.Helper()
	m := memory.New(memory.Header{Name: name, Description: "The draft " + name + " holds one fact", Type: memory.TypeProject,
		Created: created, Updated: created, Source: "session:s1"}, "One fact.\n")
	if err := in.Put(m); err != nil {
		t.Fatal(err)
	}
}

// TestPruneKeepsConcurrentAppends: appenders in other processes (other
// inboxes of one state folder) never lose a record to a prune that
// rewrites the file meanwhile.
func TestPruneKeepsConcurrentAppends(t *testing.T) {
	ctx := context.Background()
	state := t.TempDir()
	pruner, err := OpenInbox(state)
	if err != nil {
		t.Fatal(err)
	}
	const writers, each = 4, 150
	var wg sync.WaitGroup
	for w := range writers {
		in, err := OpenInbox(state)
		if err != nil {
			t.Fatal(err)
		}
		wg.Go(func() {
			for i := range each {
				// A sighting of a memory gone, for every prune to drop,
				// and one of a memory kept, which must all be there.
				for _, name := range []string{"gone-fact", "kept-fact"} {
					s := Sighting{Memory: name, Where: "project", Action: Duplicate, Said: fmt.Sprintf("w%d said it, %d", w, i), At: t0}
					if err := in.Sight(ctx, s); err != nil {
						t.Error(err)
						return
					}
				}
			}
		})
	}
	written := make(chan struct{})
	pruned := make(chan int)
	go func() { // prune until the appenders are done, and once more
		n := 0
		defer func() { pruned <- n }()
		for {
			stop := false
			select {
			case <-written:
				stop = true
			default:
			}
			if _, err := pruner.PruneRecords(ctx, known("kept-fact"), t0, true); err != nil {
				t.Error(err)
				return
			}
			n++
			if stop {
				return
			}
		}
	}()
	wg.Wait()
	close(written)
	prunes := <-pruned
	got, err := pruner.Sightings("kept-fact")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != writers*each {
		t.Errorf("after %d prunes, %d sightings of kept-fact, want %d", prunes, len(got), writers*each)
	}
	seen := map[string]bool{}
	for _, s := range got {
		if seen[s.Said] {
			t.Errorf("sighting %q twice", s.Said)
		}
		seen[s.Said] = true
	}
}

// TestPruneRecordsKeepsWhatReadersRead: a prune changes nothing that the
// readers give for the drafts waiting and the memories kept, and takes
// what they never read.
func TestPruneRecordsKeepsWhatReadersRead(t *testing.T) {
	now := t0.Add(365 * 24 * time.Hour)
	old, recent := now.Add(-LinkRetention-time.Hour), now.Add(-LinkRetention+time.Hour)
	tests := []struct {
		name          string
		sightings     []Sighting
		links         []Link
		wantSightings int // kept
		wantLinks     int
	}{
		{"sightings of memories kept, drafts waiting, and forgotten stay", []Sighting{
			{Memory: "kept-fact", Where: "project", Action: Duplicate, At: old},
			{Memory: "waiting", Where: "inbox", Action: Duplicate, At: old},
			{Memory: "forgotten-fact", Where: "user", Action: Extended, At: old},
		}, nil, 3, 0},
		{"sightings of names nowhere go, however recent", []Sighting{
			{Memory: "gone-fact", Where: "project", Action: Duplicate, At: now},
			{Memory: "gone-draft", Where: "inbox", Action: Duplicate, At: now},
		}, nil, 0, 0},
		{"only the drafting record Drafting gives stays", []Sighting{
			{Memory: "waiting", Where: "inbox", Action: Drafted, Said: "an earlier draft", At: old},
			{Memory: "waiting", Where: "inbox", Action: Drafted, Said: "this draft, said first", At: now},
			{Memory: "waiting", Where: "inbox", Action: Drafted, Said: "this draft", At: now},
			{Memory: "kept-fact", Where: "inbox", Action: Drafted, Said: "a draft since approved", At: old},
		}, nil, 1, 0},
		{"a waiting draft's newest link stays, an earlier one goes", nil, []Link{
			{Draft: "waiting", Memory: "kept-fact", Kind: LinkContradicts, At: old},
			{Draft: "waiting", Memory: "kept-fact", Kind: LinkChanges, At: old},
		}, 0, 1},
		{"a link closed long ago goes, with its close", nil, []Link{
			{Draft: "reviewed", Memory: "kept-fact", Kind: LinkChanges, At: old},
			{Draft: "reviewed", Kind: linkClosed, At: old},
		}, 0, 0},
		{"a link closed lately stays, with its close", nil, []Link{
			{Draft: "reviewed", Memory: "kept-fact", Kind: LinkChanges, At: old},
			{Draft: "reviewed", Memory: "kept-fact", Kind: LinkContradicts, At: old},
			{Draft: "reviewed", Kind: linkClosed, At: recent},
		}, 0, 2},
		{"a waiting draft's link closed long ago, then linked again", nil, []Link{
			{Draft: "waiting", Memory: "gone-fact", Kind: LinkChanges, At: old.Add(-time.Hour)},
			{Draft: "waiting", Kind: linkClosed, At: old},
			{Draft: "waiting", Memory: "kept-fact", Kind: LinkContradicts, At: recent},
		}, 0, 1},
		{"an open link of a draft removed by hand goes after the retention", nil, []Link{
			{Draft: "removed-lately", Memory: "kept-fact", Kind: LinkContradicts, At: recent},
			{Draft: "removed-long-ago", Memory: "kept-fact", Kind: LinkContradicts, At: old},
		}, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			in, err := OpenInbox(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			putDraft(t, in, "waiting", now.Add(-time.Minute))
			for _, s := range tt.sightings {
				if err := in.Sight(ctx, s); err != nil {
					t.Fatal(err)
				}
			}
			for _, l := range tt.links {
				if err := in.link(ctx, l); err != nil {
					t.Fatal(err)
				}
			}
			names := known("kept-fact", "forgotten-fact")
			before := readers(t, in)
			p, err := in.PruneRecords(ctx, names, now, true)
			if err != nil {
				t.Fatal(err)
			}
			if p.Sightings.Kept != tt.wantSightings || p.Sightings.Pruned != len(tt.sightings)-tt.wantSightings {
				t.Errorf("sightings kept %d, pruned %d; want %d, %d", p.Sightings.Kept, p.Sightings.Pruned, tt.wantSightings, len(tt.sightings)-tt.wantSightings)
			}
			if p.Links.Kept != tt.wantLinks || p.Links.Pruned != len(tt.links)-tt.wantLinks {
				t.Errorf("links kept %d, pruned %d; want %d, %d", p.Links.Kept, p.Links.Pruned, tt.wantLinks, len(tt.links)-tt.wantLinks)
			}
			if after := readers(t, in); after != before {
				t.Errorf("after the prune the readers give\n%s\nwant\n%s", after, before)
			}
		})
	}
}

// readers is what the readers of the records give for the draft waiting
// and the memories kept-fact and forgotten-fact.
func readers(t *testing.T, in *Inbox) string {
	t.Helper()
	d, err := in.Load("waiting")
	if err != nil {
		t.Fatal(err)
	}
	drafting, ok, err := in.Drafting(Draft{Name: "waiting", Memory: d})
	if err != nil {
		t.Fatal(err)
	}
	links, err := in.Links()
	if err != nil {
		t.Fatal(err)
	}
	maps.DeleteFunc(links, func(draft string, _ Link) bool { return draft != "waiting" })
	out := fmt.Sprintf("drafting: %v %+v\nlinks: %+v\n", ok, drafting, links)
	for _, name := range []string{"waiting", "kept-fact", "forgotten-fact"} {
		s, err := in.Sightings(name)
		if err != nil {
			t.Fatal(err)
		}
		to, err := in.LinksTo(name)
		if err != nil {
			t.Fatal(err)
		}
		to = slices.DeleteFunc(to, func(l Link) bool { return l.Draft != "waiting" }) // a draft gone has no link to keep
		out += fmt.Sprintf("%s: sightings %+v, links to it %+v\n", name, s, to)
	}
	return out
}

// TestReadPastTheBound: of a file of records longer than the bound
// ([maxRecords]), the last bytes within it are read: a line they cut is
// skipped, one they start with is whole.
func TestReadPastTheBound(t *testing.T) {
	line := func(draft string) string {
		return fmt.Sprintf(`{"draft":%q,"memory":"kept-fact","kind":"changes","at":"2026-11-30T10:00:00Z"}`+"\n", draft)
	}
	first, middle, last := line("oldest"), line("middle"), line("newest")
	data := first + middle + last
	tail := int64(len(middle) + len(last)) // the bound that starts at the middle line
	tests := []struct {
		name  string
		bound int64
		want  []string
	}{
		{"the bound starts at the middle line", tail, []string{"middle", "newest"}},
		{"the bound takes the newline before it", tail + 1, []string{"middle", "newest"}},
		{"the bound cuts the middle line", tail - 1, []string{"newest"}},
		{"the bound cuts the first line", tail + 5, []string{"middle", "newest"}},
		{"the bound cuts the first line's first byte", int64(len(data)) - 1, []string{"middle", "newest"}},
		{"the bound is the file", int64(len(data)), []string{"oldest", "middle", "newest"}},
		{"the bound is past the file", maxRecords, []string{"oldest", "middle", "newest"}},
		{"the bound is within the last line", int64(len(last)) - 1, nil},
	}
	path := filepath.Join(t.TempDir(), "links.jsonl")
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		got, err := readRecords[Link](path, tt.bound)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, l := range got {
			names = append(names, l.Draft)
		}
		if fmt.Sprint(names) != fmt.Sprint(tt.want) {
			t.Errorf("%s: read %v, want %v (%d of %d bytes)", tt.name, names, tt.want, tt.bound, len(data))
		}
	}
}

// FuzzPruneRecords: whatever links.jsonl and provenance.jsonl hold, a
// prune leaves what the readers give for the waiting draft and the kept
// memories as it was, and a second prune finds nothing more to drop.
func FuzzPruneRecords(f *testing.F) {
	f.Add([]byte(`{"draft":"waiting","memory":"kept-fact","where":"project","kind":"changes","at":"2026-11-30T10:00:00Z"}
{"draft":"waiting","kind":"closed","at":"2026-12-01T10:00:00Z"}
{"draft":"gone","memory":"kept-fact","kind":"contradicts","at":"2027-11-30T10:00:00Z"}
{"draft":"waiting","memory":"kept-fact","where":"project","kind":"contradicts","at":"2027-11-30T10:00:00Z"}
`), []byte(`{"memory":"kept-fact","where":"project","action":"duplicate","said":"Said again","at":"2027-01-10T10:00:00Z"}
{"memory":"gone-fact","where":"project","action":"duplicate","at":"2027-01-11T10:00:00Z"}
{"memory":"waiting","where":"inbox","action":"drafted","said":"this draft","at":"2027-12-01T09:59:00Z","reasons":["inferred"]}
{"memory":"waiting","where":"inbox","action":"drafted","at":"2027-01-01T00:00:00Z"}
not a record
`))
	now := time.Date(2027, 12, 1, 10, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, links, provenance []byte) {
		ctx := context.Background()
		state := t.TempDir()
		in, err := OpenInbox(state)
		if err != nil {
			t.Fatal(err)
		}
		putDraft(t, in, "waiting", now.Add(-time.Minute))
		for path, data := range map[string][]byte{in.links: links, in.provenance: provenance} {
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		names := known("kept-fact", "forgotten-fact")
		before := readers(t, in)
		if _, err := in.PruneRecords(ctx, names, now, true); err != nil {
			t.Fatal(err)
		}
		if after := readers(t, in); after != before {
			t.Errorf("after the prune the readers give\n%s\nwant\n%s", after, before)
		}
		p, err := in.PruneRecords(ctx, names, now, true)
		if err != nil {
			t.Fatal(err)
		}
		if p.Sightings.Pruned+p.Links.Pruned != 0 {
			t.Errorf("a second prune dropped %d sightings and %d links", p.Sightings.Pruned, p.Links.Pruned)
		}
	})
}
