package memory

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/lazyregexp"
	"github.com/mnemo-dev/mnemo/internal/redact"
)

var hexRE = lazyregexp.New(`^[0-9a-f]{8,64}$`)

// Validate reports every problem with m's header, and control characters in
// its body (see untrusted.go for what a memory file may not hold), each a
// [*ParseError] naming the file, line and field, joined with [errors.Join];
// nil when m is valid.
// file is the file's name (its base must be m.Name + ".md"); empty skips
// that check. Use [Problems] to range over the result.
func (m *Memory) Validate(file string) error {
	v := validator{m: m, path: file}
	if m.src != nil {
		for _, p := range m.src.problems {
			v.errs = append(v.errs, p)
		}
	}
	h := m.Header
	switch {
	case h.Name == "":
		v.add("name", ErrMissing)
	case !ValidName(h.Name):
		v.add("name", fmt.Errorf("%q is not a name: use lowercase letters, digits and '-', at most %d, starting with a letter or digit", h.Name, MaxNameLen))
	case file != "" && path.Base(file) != h.Name+".md":
		v.add("name", fmt.Errorf("%q does not match the file name %s", h.Name, path.Base(file)))
	case nameSecret(h.Name) != "":
		// A name is the file's: listed, linked and recalled as it is,
		// it cannot be shown redacted.
		v.add("name", fmt.Errorf("holds a secret (%s): rename the file and its name", redact.Describe(nameSecret(h.Name))))
	}
	switch {
	case strings.TrimSpace(h.Description) == "":
		v.add("description", ErrMissing)
	case lineProblem(h.Description) != nil:
		v.add("description", lineProblem(h.Description))
	case utf8.RuneCountInString(h.Description) > MaxDescriptionLen:
		v.add("description", fmt.Errorf("is %d characters, at most %d: say what the memory helps with, in one line", utf8.RuneCountInString(h.Description), MaxDescriptionLen))
	}
	switch {
	case h.Type == "":
		v.add("type", ErrMissing)
	case !h.Type.Valid():
		v.add("type", fmt.Errorf("%q is not one of user, feedback, project, reference", h.Type))
	}
	if h.Confidence < 0 || h.Confidence > 1 {
		v.add("confidence", fmt.Errorf("%v is not between 0 and 1", h.Confidence))
	}
	switch h.Status {
	case StatusActive, "":
	case StatusSuperseded:
		if h.SupersededBy == "" {
			v.add("superseded_by", errors.New("missing: a superseded memory names the one that replaces it"))
		}
	default:
		v.add("status", fmt.Errorf("%q is not one of active, superseded", h.Status))
	}
	switch {
	case h.SupersededBy != "" && !ValidName(h.SupersededBy):
		v.add("superseded_by", fmt.Errorf("%q is not a memory name", h.SupersededBy))
	case nameSecret(h.SupersededBy) != "":
		v.add("superseded_by", fmt.Errorf("holds a secret (%s)", redact.Describe(nameSecret(h.SupersededBy))))
	}
	v.anchors(h.Anchors)
	v.text(m)
	return errors.Join(v.errs...)
}

// nameSecret returns the kind of secret a name holds, or "": a name is
// one token ([redact.TokenKind]).
func nameSecret(name string) string { return redact.TokenKind(name) }

// text checks the free text: source, why, tags and the body.
func (v *validator) text(m *Memory) {
	switch {
	case lineProblem(m.Source) != nil:
		v.add("source", lineProblem(m.Source))
	case m.Source != "" && !validSource(m.Source):
		v.add("source", fmt.Errorf("%q is not one of manual, agent, session:<id>, import:<what>", m.Source))
	}
	if err := lineProblem(m.Why); err != nil {
		v.add("why", err)
	}
	for _, t := range m.Tags {
		switch err := lineProblem(t); {
		case strings.TrimSpace(t) == "":
			v.add("tags", fmt.Errorf("%q is not a tag", t))
		case err != nil:
			v.add("tags", fmt.Errorf("%q %w", t, err))
		}
	}
	if line, err := bodyProblem(m.Body); err != nil {
		v.errs = append(v.errs, &ParseError{Path: v.path, Line: m.bodyStart() + line, Field: "body", Err: err})
	}
}

func validSource(s string) bool {
	if s == "manual" || s == "agent" {
		return true
	}
	kind, rest, ok := strings.Cut(s, ":")
	return ok && rest != "" && (kind == "session" || kind == "import")
}

type validator struct {
	m    *Memory
	path string
	errs []error
}

func (v *validator) add(field string, err error) { v.addAt(field, v.m.Line(field), err) }

// addAt records a problem with field at a file line.
func (v *validator) addAt(field string, line int, err error) {
	if v.m.src != nil {
		for _, p := range v.m.src.problems {
			if p.Field == field {
				return // the value could not be read; that problem says enough
			}
		}
	}
	v.errs = append(v.errs, &ParseError{Path: v.path, Line: line, Field: field, Err: err})
}

// anchors checks what reaches git and the file system: the commit is an
// object name, each path a clean one inside the repository.
func (v *validator) anchors(a Anchors) {
	if a.Commit != "" && !ValidCommit(a.Commit) {
		v.addAt("anchors.commit", v.m.subLine("anchors", "commit", ""),
			fmt.Errorf("%q is not a commit: want 4 to 64 hex digits", a.Commit))
	}
	for _, f := range a.Files {
		switch {
		case f.Path == "":
			v.addAt("anchors.files", v.m.subLine("anchors", "files", ""), errors.New("a file anchor has no path"))
		case !ValidPath(f.Path):
			v.addAt("anchors.files", v.m.subLine("anchors", "path", f.Path),
				fmt.Errorf("path %q is not a clean path inside the repository", f.Path))
		}
		if f.SHA256 != "" && !hexRE.MatchString(f.SHA256) {
			v.addAt("anchors.files", v.m.subLine("anchors", "sha256", f.SHA256),
				fmt.Errorf("sha256 %q of %s is not lowercase hex", f.SHA256, f.Path))
		}
	}
}

// Line returns the file line of a header key: 1 (the header's first line)
// when the key is absent, 0 when m was not parsed.
func (m *Memory) Line(field string) int {
	if m.src == nil {
		return 0
	}
	if field == "type" && m.src.typeInMetadata {
		field = "metadata.type"
	}
	if l, ok := m.src.keys[field]; ok {
		return l
	}
	return 1
}

// subLine returns the file line, at or after the header key's, of the
// nested key sub, the first one whose value is value when value is not
// empty; the key's line when there is none (or the value is written in a
// form this does not read, such as a flow mapping or escapes).
func (m *Memory) subLine(key, sub, value string) int {
	line := m.Line(key)
	if m.src == nil || line < 2 {
		return line
	}
	lines := strings.Split(string(m.src.header), "\n")
	for i := line - 2; i < len(lines); i++ { // the header's first line is the file's second
		_, rest, ok := strings.Cut(lines[i], sub+":")
		if !ok {
			continue
		}
		rest = strings.TrimSpace(rest)
		if value == "" || rest == value || len(rest) > 1 && (rest[0] == '"' || rest[0] == '\'') && rest[1:len(rest)-1] == value {
			return i + 2
		}
	}
	return line
}

// BodyLine returns the file line where s first appears in the body, or 0.
func (m *Memory) BodyLine(s string) int {
	i := strings.Index(m.Body, s)
	if i < 0 {
		return 0
	}
	return m.bodyStart() + strings.Count(m.Body[:i], "\n")
}

// bodyStart returns the file line of the body's first line.
func (m *Memory) bodyStart() int {
	if m.src == nil {
		return 1
	}
	return 3 + strings.Count(string(m.src.header), "\n")
}
