package fence

import (
	"strings"
	"unicode"

	"github.com/mnemo-dev/mnemo/internal/confusable"
	"github.com/mnemo-dev/mnemo/internal/lazyregexp"
)

// Memory is the tag the hooks fence injected memories with. A memory's
// header may not hold it (package memory refuses it); a body may, and is
// escaped where it is injected.
var Memory = New("mnemo-memory")

// A Tag is the name of a fence.
type Tag struct {
	name string
	re   *lazyregexp.Regexp // a tag-like text at the start of the input; group 1 is its '<'
}

// opener is what a reader may take for the '<' of a tag.
const opener = `(?i:(<|＜|﹤|‹|〈|⟨|〈|&(?:amp;)*(?:lt;?|#0*60;?|#x0*3c;?)|%3c|\\u0*3c|\\x3c|\\0?74))`

// window bounds how far past a possible '<' a tag is looked for: a tag
// padded past it with invisible characters reads as no tag to anyone.
const window = 1024

// New returns the tag called name: lowercase ASCII letters, digits, and
// '-' or '_' between words.
func New(name string) *Tag {
	var b strings.Builder
	b.WriteString("^" + opener + `[\s/\\／\p{Cf}]*`)
	for _, r := range name {
		if r == '-' || r == '_' {
			b.WriteString(`[^\p{L}\p{N}<>＜＞]{0,3}`) // any separator, or none
			continue
		}
		b.WriteString("[" + variants(r) + `]\p{Cf}*`)
	}
	b.WriteString(`(?:\s*(?i:>|＞|&gt;?))?`)
	return &Tag{name: name, re: lazyregexp.New(b.String())}
}

// variants lists the forms of an ASCII letter or digit a reader takes for
// it: both cases, the full-width forms, and the Cyrillic and Greek letters
// drawn like it.
func variants(r rune) string {
	const fullWidth = 0xFEE0 // U+FF01 is '!' + fullWidth
	var b strings.Builder
	for _, c := range []rune{unicode.ToLower(r), unicode.ToUpper(r)} {
		b.WriteRune(c)
		b.WriteRune(c + fullWidth)
	}
	for _, c := range confusable.LookAlikes(r) {
		b.WriteRune(c)
	}
	return b.String()
}

// Open returns the opening tag, <name>.
func (t *Tag) Open() string { return "<" + t.name + ">" }

// Close returns the closing tag, </name>.
func (t *Tag) Close() string { return "</" + t.name + ">" }

// Find returns the first text in s that a reader could take for the tag,
// opening or closing, or "" when there is none.
func (t *Tag) Find(s string) string {
	i, loc := t.next(s, 0)
	if loc == nil {
		return ""
	}
	return s[i : i+loc[1]]
}

// Escape returns s with the '<' of every text a reader could take for the
// tag replaced by '[', so that s can sit inside the fence without closing
// it or opening another.
func (t *Tag) Escape(s string) string {
	var b strings.Builder
	last := 0
	for from := 0; ; {
		i, loc := t.next(s, from)
		if loc == nil {
			break
		}
		if b.Len() == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[last : i+loc[2]])
		b.WriteByte('[')
		last = i + loc[3]
		from = i + loc[1]
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// next finds the first tag at or after from: its offset in s and its
// submatch offsets relative to there. It tries the pattern only where a
// '<' or one of its stand-ins can begin ('&', '%', '\', or the lead byte
// of a look-alike), which keeps escaping a hook's whole context to a scan
// of its bytes.
func (t *Tag) next(s string, from int) (int, []int) {
	for i := from; i < len(s); i++ {
		switch s[i] {
		case '<', '&', '%', '\\', 0xE2, 0xE3, 0xEF:
			if loc := t.re.FindStringSubmatchIndex(s[i:min(len(s), i+window)]); loc != nil {
				return i, loc
			}
		}
	}
	return 0, nil
}
