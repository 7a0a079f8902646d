package memory

import (
	"errors"
	"strings"
	"testing"
	"time"
)

const full = `---
name: auth-moved-to-auth-package
description: Authentication lives in internal/auth since 2026-09; UserService must not import billing/
type: project
created: 2026-11-30T10:12:00Z
updated: 2026-11-30T10:12:00Z
source: session:8f3a2c1d
why: The user corrected an import from UserService twice in one session.
confidence: 0.9
review_by: 2027-02-28
anchors:
  commit: 4f2e9c1d0b7a
  files:
    - path: internal/auth/service.go
      sha256: 3a7b9c0d12ef4455
tags: [auth]
---
Authentication moved from ` + "`UserService`" + ` to ` + "`internal/auth`" + ` in 2026-09.
` + "`UserService`" + ` must not import ` + "`billing/`" + `. See [[billing-boundary]].
`

func TestParseFull(t *testing.T) {
	m, err := Parse("full.md", []byte(full))
	if err != nil {
		t.Fatal(err)
	}
	want := Header{
		Name:        "auth-moved-to-auth-package",
		Description: "Authentication lives in internal/auth since 2026-09; UserService must not import billing/",
		Type:        TypeProject,
		Created:     time.Date(2026, 11, 30, 10, 12, 0, 0, time.UTC),
		Updated:     time.Date(2026, 11, 30, 10, 12, 0, 0, time.UTC),
		Source:      "session:8f3a2c1d",
		Why:         "The user corrected an import from UserService twice in one session.",
		Confidence:  0.9,
		Status:      StatusActive,
		ReviewBy:    time.Date(2027, 2, 28, 0, 0, 0, 0, time.UTC),
		Anchors: Anchors{Commit: "4f2e9c1d0b7a", Files: []FileAnchor{
			{Path: "internal/auth/service.go", SHA256: "3a7b9c0d12ef4455"},
		}},
		Tags: []string{"auth"},
	}
	if !m.Header.equal(want) {
		t.Errorf("Parse header = %+v\nwant %+v", m.Header, want)
	}
	if err := m.Validate("full.md"); err == nil {
		t.Errorf("Validate(full.md) = nil, want a name mismatch")
	}
	if err := m.Validate(".memory/auth-moved-to-auth-package.md"); err != nil {
		t.Errorf("Validate = %v, want nil", err)
	}
	if got := m.Links(); len(got) != 1 || got[0] != "billing-boundary" {
		t.Errorf("Links = %q, want [billing-boundary]", got)
	}
}

func TestParseClaudeCode(t *testing.T) {
	tests := []struct {
		name, text string
		typ        Type
		updated    string
	}{
		{"flat", "---\nname: x\ndescription: d\ntype: user\n---\nbody\n", TypeUser, ""},
		{"metadata", "---\nname: x\ndescription: d\nmetadata:\n  type: feedback\nmodified: 2026-10-01\n---\nbody\n", TypeFeedback, "2026-10-01T00:00:00Z"},
		{"crlf", "---\r\nname: x\r\ndescription: d\r\ntype: project\r\n---\r\nbody\r\n", TypeProject, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse("x.md", []byte(tt.text))
			if err != nil {
				t.Fatal(err)
			}
			if m.Type != tt.typ {
				t.Errorf("Type = %q, want %q", m.Type, tt.typ)
			}
			if got := formatOrEmpty(m.Updated); got != tt.updated {
				t.Errorf("Updated = %q, want %q", got, tt.updated)
			}
			if err := m.Validate("x.md"); err != nil {
				t.Errorf("Validate = %v", err)
			}
			if got := string(m.Render()); got != tt.text {
				t.Errorf("Render unchanged = %q, want the input", got)
			}
		})
	}
}

func formatOrEmpty(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return FormatTime(t)
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, text string
		want       string
		is         error
	}{
		{"no header", "just text\n", "bad.md:1: no header: a memory file starts with a '---' line", ErrNoHeader},
		{"empty", "", "bad.md:1: no header: a memory file starts with a '---' line", ErrNoHeader},
		{"unclosed", "---\nname: x\n", "bad.md:1: header is not closed: no '---' line after the first", nil},
		{"bad yaml", "---\nname: x\ndescription: [oops\n---\n", "bad.md:3: invalid YAML: did not find expected ',' or ']'", nil},
		{"list header", "---\n- a\n- b\n---\n", "bad.md:2: header is not a YAML mapping of keys to values", nil},
		{"not utf8", "---\nname: x\n---\nhello \xff\n", "bad.md:4: not valid UTF-8", ErrNotUTF8},
		{"too large", "---\nname: x\n---\n" + strings.Repeat("a", MaxFileSize), "bad.md: file is larger than 1024 KiB: a memory holds one fact", ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("bad.md", []byte(tt.text))
			if err == nil {
				t.Fatalf("Parse = nil error, want %q", tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("Parse error = %q, want %q", err, tt.want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("errors.Is(%v, %v) = false", err, tt.is)
			}
		})
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		name, header string
		want         []string
	}{
		{"valid", "name: bad\ndescription: d\ntype: user\n", nil},
		{"missing all", "tags: [x]\n", []string{
			"bad.md:1: name: missing", "bad.md:1: description: missing", "bad.md:1: type: missing"}},
		{"bad type", "name: bad\ntype: proj\ndescription: d\n", []string{
			`bad.md:3: type: "proj" is not one of user, feedback, project, reference`}},
		{"bad name", "name: Bad_Name\ndescription: d\ntype: user\n", []string{
			`bad.md:2: name: "Bad_Name" is not a name: use lowercase letters, digits and '-', at most 64, starting with a letter or digit`}},
		{"name mismatch", "name: other\ndescription: d\ntype: user\n", []string{
			`bad.md:2: name: "other" does not match the file name bad.md`}},
		{"long description", "name: bad\ndescription: " + strings.Repeat("é", 151) + "\ntype: user\n", []string{
			"bad.md:3: description: is 151 characters, at most 150: say what the memory helps with, in one line"}},
		{"confidence", "name: bad\ndescription: d\ntype: user\nconfidence: 1.5\n", []string{
			"bad.md:5: confidence: 1.5 is not between 0 and 1"}},
		{"confidence text", "name: bad\ndescription: d\ntype: user\nconfidence: high\n", []string{
			`bad.md:5: confidence: "high" is not a number between 0 and 1`}},
		{"date", "name: bad\ndescription: d\ntype: user\ncreated: yesterday\n", []string{
			`bad.md:5: created: "yesterday" is not a date (want RFC 3339, like 2026-11-30T10:12:00Z, or 2026-11-30)`}},
		{"superseded", "name: bad\ndescription: d\ntype: user\nstatus: superseded\n", []string{
			"bad.md:1: superseded_by: missing: a superseded memory names the one that replaces it"}},
		{"status", "name: bad\ndescription: d\ntype: user\nstatus: gone\n", []string{
			`bad.md:5: status: "gone" is not one of active, superseded`}},
		{"source", "name: bad\ndescription: d\ntype: user\nsource: chat\n", []string{
			`bad.md:5: source: "chat" is not one of manual, agent, session:<id>, import:<what>`}},
		{"duplicate key", "name: bad\ndescription: d\ntype: user\ntype: project\n", []string{
			"bad.md:5: type: appears twice in the header"}},
		{"name list", "name: [a]\ndescription: d\ntype: user\n", []string{
			"bad.md:2: name: want a single value"}},
		{"anchor path", "name: bad\ndescription: d\ntype: user\nanchors:\n  files:\n    - path: /etc/passwd\n      sha256: XYZ\n", []string{
			`bad.md:5: anchors: path "/etc/passwd" is not relative to the repository root`,
			`bad.md:5: anchors: sha256 "XYZ" of /etc/passwd is not lowercase hex`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse("bad.md", []byte("---\n"+tt.header+"---\n"))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range Problems(m.Validate("bad.md")) {
				got = append(got, e.Error())
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("Validate =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestYAMLErrorLines(t *testing.T) {
	tests := []struct {
		header string
		line   int
	}{
		{"name: [\n", 2},
		{"name: x\ndescription: [oops\n", 3},
		{"a: 1\nb: 2\nc: [x\nd: 4\n", 4},
		{"a: {x\n", 2},
		{"a: 1\n  b: 2\n", 3},
	}
	for _, tt := range tests {
		_, err := Parse("f.md", []byte("---\n"+tt.header+"---\n"))
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != tt.line {
			t.Errorf("Parse(%q) error = %v, want line %d", tt.header, err, tt.line)
		}
	}
}
