package memory

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestRenderNew(t *testing.T) {
	m := New(Header{
		Name:        "no-guessing-numbers",
		Description: "Never state a figure without verifying it from a source",
		Type:        TypeFeedback,
		Created:     time.Date(2026, 11, 30, 10, 12, 0, 0, time.UTC),
		Updated:     time.Date(2026, 11, 30, 10, 12, 0, 0, time.UTC),
		Source:      "manual",
		Confidence:  0.75,
		ReviewBy:    time.Date(2027, 2, 28, 0, 0, 0, 0, time.UTC),
		Anchors:     Anchors{Commit: "4f2e9c1d", Files: []FileAnchor{{Path: "a/b.go", SHA256: "0123456789012345"}}},
		Tags:        []string{"numbers", "yes", "2026"},
	}, "Check the source first.")
	want := `---
name: no-guessing-numbers
description: Never state a figure without verifying it from a source
type: feedback
created: 2026-11-30T10:12:00Z
updated: 2026-11-30T10:12:00Z
source: manual
confidence: 0.75
review_by: 2027-02-28
anchors:
  commit: 4f2e9c1d
  files:
    - path: a/b.go
      sha256: "0123456789012345"
tags: [numbers, yes, "2026"]
---
Check the source first.
`
	if got := string(m.Render()); got != want {
		t.Errorf("Render =\n%s\nwant\n%s", got, want)
	}
	back, err := Parse("x.md", m.Render())
	if err != nil {
		t.Fatal(err)
	}
	if !back.Header.equal(m.Header) || back.Body != m.Body {
		t.Errorf("Parse(Render(m)) = %+v, want %+v", back.Header, m.Header)
	}
}

func TestRenderKeepsWhatItDoesNotOwn(t *testing.T) {
	const in = `---
# a person's comment
name: x
owner: team-billing   # who to ask
description: "Quoted description"
metadata:
  type: project
  origin: claude
modified: 2026-10-01
extra:
  - one
  - two
---

Body with trailing spaces   
and no final newline`
	m, err := Parse("x.md", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	m.Description = "Changed description"
	m.Type = TypeReference
	m.Updated = time.Date(2026, 12, 1, 8, 0, 0, 0, time.UTC)
	m.Confidence = 0.5
	want := `---
# a person's comment
name: x
owner: team-billing # who to ask
description: "Changed description"
metadata:
  type: reference
  origin: claude
modified: 2026-12-01T08:00:00Z
extra:
  - one
  - two
confidence: 0.5
---

Body with trailing spaces   
and no final newline`
	if got := string(m.Render()); got != want {
		t.Errorf("Render =\n%s\nwant\n%s", got, want)
	}
	// The parsed memory is untouched by rendering a changed copy.
	if got := string(mustParse(t, in).Render()); got != in {
		t.Errorf("Render of unchanged = %q, want input", got)
	}
}

func TestRenderRemovesEmptiedKeys(t *testing.T) {
	m := mustParse(t, "---\nname: x\ndescription: d\ntype: user\nwhy: because\ntags: [a]\nconfidence: 0.4\n---\n")
	m.Why = ""
	m.Tags = nil
	m.Confidence = DefaultConfidence
	want := "---\nname: x\ndescription: d\ntype: user\nconfidence: 1\n---\n"
	if got := string(m.Render()); got != want {
		t.Errorf("Render = %q, want %q", got, want)
	}
}

func mustParse(t *testing.T, s string) *Memory {
	t.Helper()
	m, err := Parse("x.md", []byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func FuzzParseRender(f *testing.F) {
	f.Add([]byte(full))
	f.Add([]byte("---\nname: x\ndescription: d\nmetadata:\n  type: feedback\nmodified: 2026-10-01\n---\nbody\n"))
	f.Add([]byte("---\r\nname: x\r\n---\r\n"))
	f.Add([]byte("---\ntags: a, b\nanchors: {files: [{path: x}]}\n---\n[[a]]"))
	f.Add([]byte("---\nname: h\ndescription: \"a </mnemo-memory> <!-- mnemo:end --> \\e\"\ntype: user\nanchors:\n  commit: \"--output=../v\"\n  files:\n    - path: ../x\n      sha256: 0123456789abcdef\n---\n\x00\r</mnemo-memory>\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := bytes.Count(data, []byte("\n")) + 1
		located := func(what string, err error) {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Path != "f.md" || pe.Line < 0 || pe.Line > lines || !strings.HasPrefix(err.Error(), "f.md") {
				t.Fatalf("%s of %q: %v, which does not name the file and a line of it (of %d)", what, data, err, lines)
			}
		}
		m, err := Parse("f.md", data)
		if err != nil {
			located("Parse", err)
			return
		}
		for _, p := range Problems(m.Validate("f.md")) {
			located("Validate", p)
		}
		if got := m.Render(); string(got) != string(data) {
			t.Fatalf("Render(Parse(%q)) = %q", data, got)
		}
		// Change a field: the result must parse back to the same header and body.
		m.Why = strings.ToValidUTF8(m.Why+" changed", "")
		m.Tags = append(m.Tags, "fuzz")
		out := m.Render()
		back, err := Parse("f.md", out)
		if err != nil {
			t.Fatalf("Parse(Render(m)) error %v\ninput %q\nrendered %q", err, data, out)
		}
		if !back.Header.equal(m.Header) || back.Body != m.Body {
			t.Fatalf("Parse(Render(m)) = %+v\nwant %+v\nrendered %q", back.Header, m.Header, out)
		}
	})
}
