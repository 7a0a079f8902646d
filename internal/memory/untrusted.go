package memory

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/fence"
	"github.com/mnemo-dev/mnemo/internal/lazyregexp"
)

// A memory file arrives through git from anyone who can land a commit, so
// everything in it is untrusted. The checks here are the ones [Memory.Validate]
// makes of what could act on something other than the reader: git (the
// anchor commit), the file system (anchor paths), the terminal (control
// characters), MEMORY.md (its markers) and the fence the hooks put around
// injected text (its tag).

var (
	commitRE = lazyregexp.New(`^[0-9a-fA-F]{4,64}$`)
	// markerRE finds text that reads as one of MEMORY.md's markers, which a
	// header field rendered into the index must not hold.
	markerRE = lazyregexp.New(`(?i)<!--\s*mnemo\s*:\s*(begin|end)\b(?:\s*-->)?`)
)

// ValidCommit reports whether s is a git object name: 4 to 64 hex digits,
// and so never an option, a revision range or a path when it reaches git.
func ValidCommit(s string) bool { return commitRE.MatchString(s) }

// ValidPath reports whether p can name an anchored file: slash-separated,
// relative to the repository root, clean ("a/b", never "./a", "a//b" or
// "a/"), with no ".." element, no backslash and no control character. It
// says nothing of symlinks: a reader opens the file within the repository
// (as package staleness does) to refuse one that leads out of it.
func ValidPath(p string) bool {
	return fs.ValidPath(p) && p != "." && !strings.ContainsRune(p, '\\') &&
		!strings.ContainsFunc(p, unicode.IsControl) && filepath.IsLocal(filepath.FromSlash(p))
}

// lineProblem says what makes s unfit for a one-line header field, or nil:
// a line break, a control character, one of MEMORY.md's markers or the
// fence tag.
func lineProblem(s string) error {
	if !utf8.ValidString(s) {
		return errInvalidUTF8
	}
	if strings.ContainsAny(s, "\r\n\u2028\u2029") {
		return errors.New("must be one line")
	}
	for i, r := range []rune(s) {
		if unicode.IsControl(r) {
			return controlError(r, i+1)
		}
	}
	return markupProblem(s)
}

// markupProblem reports MEMORY.md's markers and the fence tag in s.
func markupProblem(s string) error {
	if m := markerRE.FindStringSubmatch(s); m != nil {
		where := "start"
		if strings.EqualFold(m[1], "end") {
			where = "end"
		}
		return fmt.Errorf("holds %q, which marks the %s of MEMORY.md's generated block", m[0], where)
	}
	if t := fence.Memory.Find(s); t != "" {
		return fmt.Errorf("holds %q, the tag that fences injected memories", t)
	}
	return nil
}

func controlError(r rune, col int) error {
	return fmt.Errorf("holds a control character (U+%04X) at character %d", r, col)
}

// bodyProblem finds the first control character in a body other than a
// tab, a newline and a carriage return that ends a line: it returns the
// 0-based line of the body it is on and the error, or a nil error.
func bodyProblem(body string) (line int, err error) {
	for i, l := range strings.Split(body, "\n") {
		l = strings.TrimSuffix(l, "\r")
		if !utf8.ValidString(l) {
			return i, errInvalidUTF8
		}
		for col, r := range []rune(l) {
			if unicode.IsControl(r) && r != '\t' {
				return i, controlError(r, col+1)
			}
		}
	}
	return 0, nil
}

// CleanLine returns s as one line fit for a header field: each run of
// spaces and line breaks becomes one space, other control characters go,
// and the ends are trimmed. A writer applies it to text a program produced
// (an extractor's candidate, a terminal's colored output); text a person
// wrote is refused by [Memory.Validate] instead, so that they can fix it.
func CleanLine(s string) string {
	return strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) && !unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)), " ")
}

// CleanBody returns body with "\n" line ends and without the control
// characters [Memory.Validate] refuses in a body (all but tab and newline),
// for text a program produced, as [CleanLine].
func CleanBody(body string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) && r != '\t' && r != '\n' {
			return -1
		}
		return r
	}, strings.ReplaceAll(body, "\r\n", "\n"))
}

// errInvalidUTF8 is a field's or a body line's bytes that are no text: no
// reader opens such a file.
var errInvalidUTF8 = errors.New("is not valid UTF-8")
