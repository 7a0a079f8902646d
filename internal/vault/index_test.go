package vault

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

var update = flag.Bool("update", false, "rewrite golden files")

func entry(name string, t memory.Type, desc string, updated time.Time) Entry {
	return Entry{Name: name, Memory: memory.New(memory.Header{Name: name, Type: t, Description: desc, Updated: updated, Source: "manual"}, "body")}
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs (run go test -update if the change is right):\ngot:\n%s\nwant:\n%s", name, got, want)
	}
}

func TestRenderIndexGolden(t *testing.T) {
	day := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	entries := []Entry{
		entry("auth-moved", memory.TypeProject, "Authentication lives in internal/auth since 2026-09", day),
		entry("user-identity", memory.TypeUser, "Backend engineer; prefers small PRs and table-driven tests", day),
		entry("no-guessing", memory.TypeFeedback, "Never state a figure without verifying it from a source", day),
		entry("api-docs", memory.TypeReference, "The payments API reference lives at docs.example.com/pay", day),
		entry("odd", "opinion", "A memory with a type mnemo does not know", day),
	}
	golden(t, "index-basic.md", RenderIndex(nil, entries))
}

func TestRenderIndexOverflow(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var entries []Entry
	for i := range 300 {
		typ := memory.TypeProject
		switch {
		case i%50 == 0:
			typ = memory.TypeUser
		case i%25 == 0:
			typ = memory.TypeFeedback
		}
		entries = append(entries, entry(fmt.Sprintf("m%03d", i), typ, fmt.Sprintf("Memory number %d about something", i), base.Add(time.Duration(i)*time.Hour)))
	}
	outside := "# Memory index\nA note.\n"
	got := string(RenderIndex([]byte(outside), entries))
	if n := strings.Count(got, "\n"); n > MaxIndexLines {
		t.Errorf("index has %d lines, want at most %d", n, MaxIndexLines)
	}
	for _, name := range []string{"m000", "m050", "m025", "m275", "m299"} { // user, feedback, newest project
		if !strings.Contains(got, "["+name+"]") {
			t.Errorf("index lacks %s, which should outrank older project memories", name)
		}
	}
	if strings.Contains(got, "[m001]") {
		t.Errorf("index keeps m001, the oldest project memory, over newer ones")
	}
	listed := strings.Count(got, "\n- [")
	want := fmt.Sprintf("- … and %d more not listed here", 300-listed)
	if !strings.Contains(got, want) {
		t.Errorf("index lacks the overflow line %q:\n%s", want, got)
	}
	if !strings.HasPrefix(got, "# Memory index\n"+beginMarker) || !strings.HasSuffix(got, endMarker+"\nA note.\n") {
		t.Errorf("index did not place the block after the title, keeping the note:\n%s", got)
	}
	// Long descriptions: the byte budget binds before the line budget.
	for i := range entries {
		entries[i].Memory.Description = strings.Repeat("x", 149)
	}
	got = string(RenderIndex(nil, entries))
	if len(got) > MaxIndexBytes {
		t.Errorf("index is %d bytes, want at most %d", len(got), MaxIndexBytes)
	}
}

func TestRenderIndexDeterministic(t *testing.T) {
	entries := []Entry{
		entry("b", memory.TypeProject, "B", time.Time{}),
		entry("a", memory.TypeProject, "A", time.Time{}),
	}
	first := RenderIndex(nil, entries)
	entries[0], entries[1] = entries[1], entries[0]
	if second := RenderIndex(first, entries); string(second) != string(first) {
		t.Errorf("RenderIndex depends on input order:\n%s\nthen\n%s", first, second)
	}
}

func TestRenderIndexKeepsOrphans(t *testing.T) {
	tests := []struct{ name, old, want string }{
		{
			name: "orphan moved below",
			old:  "# Memory index\n" + beginMarker + "\n- a note\n- [gone](gone.md) — deleted\n" + endMarker + "\ntail\n",
			want: "# Memory index\n" + beginMarker + "\n## Project\n- [a](a.md) — A\n" + endMarker + "\n- a note\ntail\n",
		},
		{
			name: "unclosed block",
			old:  "# T\n" + beginMarker + "\nkept line\n",
			want: "# T\n" + beginMarker + "\n## Project\n- [a](a.md) — A\n" + endMarker + "\nkept line\n",
		},
		{
			name: "no title, no markers",
			old:  "free text\n",
			want: beginMarker + "\n## Project\n- [a](a.md) — A\n" + endMarker + "\nfree text\n",
		},
		{
			name: "crlf lines outside kept",
			old:  "# T\r\nnote\r\n",
			want: "# T\r\n" + beginMarker + "\n## Project\n- [a](a.md) — A\n" + endMarker + "\nnote\r\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(RenderIndex([]byte(tt.old), []Entry{entry("a", memory.TypeProject, "A", time.Time{})}))
			if got != tt.want {
				t.Errorf("RenderIndex(%q) =\n%q\nwant\n%q", tt.old, got, tt.want)
			}
		})
	}
}

// TestRenderIndexMarkerInDescription: a description quoting a marker (lint
// refuses one, but a reader lists what it finds) neither ends the block
// early nor makes the file grow.
func TestRenderIndexMarkerInDescription(t *testing.T) {
	for _, desc := range []string{endMarker, "ends " + endMarker + " early", beginMarker, "<!-- mnemo:begin", "a\n" + endMarker} {
		entries := []Entry{entry("a", memory.TypeProject, "A", time.Time{}), entry("m", memory.TypeProject, desc, time.Time{})}
		once := RenderIndex(nil, entries)
		twice := RenderIndex(once, entries)
		if string(twice) != string(once) {
			t.Errorf("RenderIndex with description %q is not stable:\n%s\nthen\n%s", desc, once, twice)
		}
		if n := strings.Count(string(twice), "\n"+endMarker+"\n"); n != 1 {
			t.Errorf("RenderIndex with description %q has %d end marker lines, want 1:\n%s", desc, n, twice)
		}
	}
}

func FuzzRenderIndex(f *testing.F) {
	f.Add("# Memory index\n" + beginMarker + "\n## User\n- [a](a.md) — A\nnote\n" + endMarker + "\nafter\n")
	f.Add("<!-- mnemo:begin\n<!-- mnemo:end -->\n<!-- mnemo:begin")
	f.Add("# Claude\n- [N](n.md) — planted\n" + beginMarker + "\n- [n](n.md) — planted\n" + endMarker + "\n* [n](./n.md) again\n")
	f.Fuzz(func(t *testing.T, old string) {
		native := Entry{Name: "n", Memory: memory.New(memory.Header{Name: "n", Description: "planted", Type: memory.TypeUser}, "x")}
		entries := []Entry{entry("a", memory.TypeUser, "A", time.Time{}), native}
		once := RenderIndex([]byte(old), entries)
		twice := RenderIndex(once, entries)
		if string(once) != string(twice) {
			t.Fatalf("RenderIndex is not stable on %q:\n%q\n%q", old, once, twice)
		}
		// Every non-generated line of the input survives.
		for line := range strings.Lines(old) {
			l := strings.TrimRight(line, "\r\n")
			if strings.TrimSpace(l) == "" || strings.Contains(l, "mnemo:begin") || strings.Contains(l, "mnemo:end") || generated(l) {
				continue
			}
			if m := linkRE.FindStringSubmatch(l); m != nil && m[1] == "n" {
				continue // links the unreviewed memory: left out
			}
			if absorbNative(line, map[string]bool{"a": true}) == "" {
				continue // Claude Code's own line for a listed memory: the block's line stands for it
			}
			if !strings.Contains(string(once), l) {
				t.Fatalf("RenderIndex dropped %q from %q:\n%s", l, old, once)
			}
		}
		for line := range strings.Lines(string(once)) {
			if m := linkRE.FindStringSubmatch(line); m != nil && m[1] == "n" {
				t.Fatalf("RenderIndex kept a line linking an unreviewed memory: %q", line)
			}
		}
	})
}

// TestRenderIndexShare checks that MEMORY.md stays within its share of the
// session's budget, whatever the vault's size, and keeps the more
// confident memories of a type when it is full.
func TestRenderIndexShare(t *testing.T) {
	day := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for _, n := range []int{10, 137, 1000} {
		var entries []Entry
		for i := range n {
			e := entry(fmt.Sprintf("fact-%04d", i), memory.TypeProject, fmt.Sprintf("Service %d listens on port %d behind the shared gateway", i, 8000+i), day)
			e.Memory.Confidence = 0.5
			if i == n-1 {
				e.Memory.Confidence = 1 // the last by name, the first by confidence
			}
			entries = append(entries, e)
		}
		got := string(RenderIndex(nil, entries))
		if tok := memory.EstimateTokens(got); tok > memory.IndexTokens {
			t.Errorf("%d memories: MEMORY.md costs %d tokens, want at most %d", n, tok, memory.IndexTokens)
		}
		if last := fmt.Sprintf("[fact-%04d]", n-1); !strings.Contains(got, last) {
			t.Errorf("%d memories: the most confident memory %s is not listed", n, last)
		}
	}
}
