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
			`bad.md:7: anchors.files: path "/etc/passwd" is not a clean path inside the repository`,
			`bad.md:8: anchors.files: sha256 "XYZ" of /etc/passwd is not lowercase hex`}},
		{"anchor paths", "name: bad\ndescription: d\ntype: user\nanchors:\n  files:\n    - path: ../up.txt\n    - path: a/../../b\n" +
			"    - path: 'a\\..\\b'\n    - path: ./a\n    - path: a//b\n    - path: a/\n    - path: .\n    - path: \"a\\x1bb\"\n    - path: sub/ok.go\n", []string{
			`bad.md:7: anchors.files: path "../up.txt" is not a clean path inside the repository`,
			`bad.md:8: anchors.files: path "a/../../b" is not a clean path inside the repository`,
			`bad.md:9: anchors.files: path "a\\..\\b" is not a clean path inside the repository`,
			`bad.md:10: anchors.files: path "./a" is not a clean path inside the repository`,
			`bad.md:11: anchors.files: path "a//b" is not a clean path inside the repository`,
			`bad.md:12: anchors.files: path "a/" is not a clean path inside the repository`,
			`bad.md:13: anchors.files: path "." is not a clean path inside the repository`,
			`bad.md:5: anchors.files: path "a\x1bb" is not a clean path inside the repository`}},
		{"anchor commit option", "name: bad\ndescription: d\ntype: user\nanchors:\n  commit: --output=../x\n", []string{
			`bad.md:6: anchors.commit: "--output=../x" is not a commit: want 4 to 64 hex digits`}},
		{"anchor commit range", "name: bad\ndescription: d\ntype: user\nanchors: {commit: 'abc1..HEAD'}\n", []string{
			`bad.md:5: anchors.commit: "abc1..HEAD" is not a commit: want 4 to 64 hex digits`}},
		{"anchor commit short", "name: bad\ndescription: d\ntype: user\nanchors:\n  commit: abc\n", []string{
			`bad.md:6: anchors.commit: "abc" is not a commit: want 4 to 64 hex digits`}},
		{"anchor commit", "name: bad\ndescription: d\ntype: user\nanchors:\n  commit: 4F2E9c1d\n", nil},
		{"description control", "name: bad\ndescription: \"a\\x1b[2Jb\"\ntype: user\n", []string{
			`bad.md:3: description: holds a control character (U+001B) at character 2`}},
		{"description tab", "name: bad\ndescription: \"a\\tb\"\ntype: user\n", []string{
			`bad.md:3: description: holds a control character (U+0009) at character 2`}},
		{"description C1", "name: bad\ndescription: \"a\\x9bb\"\ntype: user\n", []string{
			`bad.md:3: description: holds a control character (U+009B) at character 2`}},
		{"description line separator", "name: bad\ndescription: \"a\\Lb\"\ntype: user\n", []string{
			`bad.md:3: description: must be one line`}},
		{"description end marker", "name: bad\ndescription: a <!-- mnemo:end --> b\ntype: user\n", []string{
			`bad.md:3: description: holds "<!-- mnemo:end -->", which marks the end of MEMORY.md's generated block`}},
		{"description begin marker", "name: bad\ndescription: 'a <!--  MNEMO : Begin b'\ntype: user\n", []string{
			`bad.md:3: description: holds "<!--  MNEMO : Begin", which marks the start of MEMORY.md's generated block`}},
		{"description fence", "name: bad\ndescription: a &lt;/Mnemo-Memory&gt; b\ntype: user\n", []string{
			`bad.md:3: description: holds "&lt;/Mnemo-Memory&gt;", the tag that fences injected memories`}},
		{"why two lines", "name: bad\ndescription: d\ntype: user\nwhy: \"a\\nb\"\n", []string{
			`bad.md:5: why: must be one line`}},
		{"why fence", "name: bad\ndescription: d\ntype: user\nwhy: </mnemo-memory>\n", []string{
			`bad.md:5: why: holds "</mnemo-memory>", the tag that fences injected memories`}},
		{"source control", "name: bad\ndescription: d\ntype: user\nsource: \"session:\\0\"\n", []string{
			`bad.md:5: source: holds a control character (U+0000) at character 9`}},
		{"tag marker", "name: bad\ndescription: d\ntype: user\ntags: ['<!-- mnemo:begin -->']\n", []string{
			`bad.md:5: tags: "<!-- mnemo:begin -->" holds "<!-- mnemo:begin -->", which marks the start of MEMORY.md's generated block`}},
		{"tag control", "name: bad\ndescription: d\ntype: user\ntags: [\"a\\eb\"]\n", []string{
			`bad.md:5: tags: "a\x1bb" holds a control character (U+001B) at character 2`}},
		{"superseded_by", "name: bad\ndescription: d\ntype: user\nstatus: superseded\nsuperseded_by: \"a\\nb\"\n", []string{
			`bad.md:6: superseded_by: "a\nb" is not a memory name`}},
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

func TestValidateBody(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"plain", "one\ntwo\n", ""},
		{"tab", "\tindented\n", ""},
		{"crlf", "one\r\ntwo\r\n", ""},
		{"fence tag", "</mnemo-memory> is escaped where it is injected\n", ""},
		{"nul", "one\ntw\x00o\n", "bad.md:7: body: holds a control character (U+0000) at character 3"},
		{"escape", "\x1b[2Jclear\n", "bad.md:6: body: holds a control character (U+001B) at character 1"},
		{"bare carriage return", "shown\rhidden\n", "bad.md:6: body: holds a control character (U+000D) at character 6"},
		{"C1", "a\u009bb\n", "bad.md:6: body: holds a control character (U+009B) at character 2"},
		{"delete", "a\x7f\n", "bad.md:6: body: holds a control character (U+007F) at character 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Parse("bad.md", []byte("---\nname: bad\ndescription: d\ntype: user\n---\n"+tt.body))
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if err := m.Validate("bad.md"); err != nil {
				got = err.Error()
			}
			if got != tt.want {
				t.Errorf("Validate = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestValidPath(t *testing.T) {
	tests := []struct {
		path string
		want bool
	}{
		{"a.go", true}, {"internal/auth/service.go", true}, {".github/workflows/ci.yml", true}, {"a..b/c", true},
		{"", false}, {".", false}, {"..", false}, {"../a", false}, {"a/../b", false}, {"a/..", false},
		{"/etc/passwd", false}, {"./a", false}, {"a/./b", false}, {"a//b", false}, {"a/", false},
		{`a\b`, false}, {`..\a`, false}, {"a\x00b", false}, {"a\nb", false},
	}
	for _, tt := range tests {
		if got := ValidPath(tt.path); got != tt.want {
			t.Errorf("ValidPath(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}

func TestValidCommit(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{"4f2e", true}, {"4F2E9C1D0B7A", true}, {strings.Repeat("a", 40), true}, {strings.Repeat("a", 64), true},
		{"", false}, {"abc", false}, {strings.Repeat("a", 65), false}, {"--output=x", false}, {"HEAD", false},
		{"abcd..HEAD", false}, {"abcd^", false}, {"-abcd", false}, {"abcd\n", false}, {"abcd:path", false},
	}
	for _, tt := range tests {
		if got := ValidCommit(tt.s); got != tt.want {
			t.Errorf("ValidCommit(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

func TestClean(t *testing.T) {
	lines := []struct{ in, want string }{
		{"plain", "plain"},
		{" two\nlines\r\n ", "two lines"},
		{"tab\tand\u2028separator", "tab and separator"},
		{"\x1b[31mred\x1b[0m", "[31mred[0m"},
		{"nul\x00 and \u009b C1", "nul and C1"},
	}
	for _, tt := range lines {
		if got := CleanLine(tt.in); got != tt.want {
			t.Errorf("CleanLine(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if err := lineProblem(CleanLine(tt.in)); err != nil {
			t.Errorf("lineProblem(CleanLine(%q)) = %v", tt.in, err)
		}
	}
	bodies := []struct{ in, want string }{
		{"one\ntwo\n", "one\ntwo\n"},
		{"crlf\r\nend\r\n", "crlf\nend\n"},
		{"\tindent \x1b[1mbold\x1b[0m\x00\rx\n", "\tindent [1mbold[0mx\n"},
	}
	for _, tt := range bodies {
		if got := CleanBody(tt.in); got != tt.want {
			t.Errorf("CleanBody(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if _, err := bodyProblem(CleanBody(tt.in)); err != nil {
			t.Errorf("bodyProblem(CleanBody(%q)) = %v", tt.in, err)
		}
	}
}

// TestInvalidUTF8Refused: a memory built by a program (a session id cut
// inside a character, an extractor's text) with bytes that are no UTF-8 is
// refused by Validate, field by field, and still renders without a panic.
func TestInvalidUTF8Refused(t *testing.T) {
	bad := "a\xc3"
	tests := []struct {
		name string
		edit func(*Memory)
		want string
	}{
		{"source", func(m *Memory) { m.Source = "session:" + bad }, "source: is not valid UTF-8"},
		{"description", func(m *Memory) { m.Description = bad }, "description: is not valid UTF-8"},
		{"why", func(m *Memory) { m.Why = bad }, "why: is not valid UTF-8"},
		{"tags", func(m *Memory) { m.Tags = []string{bad} }, `tags: "a\xc3" is not valid UTF-8`},
		{"body", func(m *Memory) { m.Body = "ok\n" + bad + "\n" }, "body: is not valid UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(Header{Name: "x", Description: "d", Type: TypeProject}, "b\n")
			tt.edit(m)
			err := m.Validate("x.md")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Validate = %v, want it to say %q", err, tt.want)
			}
			m.Render() // must not panic
		})
	}
}

// TestValidateNameSecret: a name is shown as it is wherever the memory is
// listed, so a file named with a secret (a teammate's commit) is invalid,
// and given to no agent; names with numbers in them stay valid.
func TestValidateNameSecret(t *testing.T) {
	tests := []struct {
		name string
		want string // the problem, or "" for a valid name
	}{
		{"xoxb-2938475610-4857392018475-q8zr2lkp9wxv3nmt7yhb4jcd", `name: holds a secret (Slack token): rename the file and its name`},
		{"sk-" + "4f9c2a1e7b3d4e8a9c6f1d2e3f4a5b6c7d8e9f0a", `name: holds a secret (OpenAI API key): rename the file and its name`},
		{"deploy-q8zr2lkp9wxv3nmt7yhb4jcd8k2m", `name: holds a secret (random-looking token): rename the file and its name`},
		{"api-listens-on-8080", ""},
		{"gadget-port-for-service-hk39-is-939", ""},
		{"release-freeze-starts-2026-12-01", ""},
		{"retry-fix-landed-in-commit-4f2e9c1d", ""},
		{"uuid-fe5e1c67-53e7-4862-81ae-d0e013e3270b", ""},
		{"auth-moved-to-auth-package", ""},
	}
	for _, tt := range tests {
		m, err := Parse(tt.name+".md", []byte("---\nname: "+tt.name+"\ndescription: d\ntype: user\n---\n"))
		if err != nil {
			t.Fatal(err)
		}
		// the same name as the memory that supersedes another
		old, err := Parse("old.md", []byte("---\nname: old\ndescription: d\ntype: user\nstatus: superseded\nsuperseded_by: "+tt.name+"\n---\n"))
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		for _, p := range Problems(m.Validate("")) {
			var pe *ParseError
			if errors.As(p, &pe) {
				got = pe.Field + ": " + pe.Err.Error()
			}
		}
		if got != tt.want {
			t.Errorf("Validate(%s) = %q, want %q", tt.name, got, tt.want)
		}
		got = ""
		for _, p := range Problems(old.Validate("old.md")) {
			got = p.Error()
		}
		if want := strings.TrimSuffix(strings.Replace(tt.want, "name: ", "old.md:6: superseded_by: ", 1), ": rename the file and its name"); got != want {
			t.Errorf("Validate(superseded_by: %s) = %q, want %q", tt.name, got, want)
		}
	}
}
