package fence

import (
	"strings"
	"unicode"

	"github.com/mnemo-dev/mnemo/internal/lazyregexp"
)

// Memory is the tag the hooks fence injected memories with. A memory's
// header may not hold it (package memory refuses it); a body may, and is
// escaped where it is injected.
var Memory = New("mnemo-memory")

// A Tag is the name of a fence.
type Tag struct {
	name string
	re   *lazyregexp.Regexp // a tag-like text; group 1 is its '<'
}

// opener is what a reader may take for the '<' of a tag.
const opener = `(?i:(<|＜|﹤|‹|〈|⟨|〈|&(?:amp;)*(?:lt;?|#0*60;?|#x0*3c;?)|%3c|\\u0*3c|\\x3c|\\0?74))`

// New returns the tag called name: lowercase ASCII letters, digits, and
// '-' or '_' between words.
func New(name string) *Tag {
	var b strings.Builder
	b.WriteString(opener + `[\s/\\／\p{Cf}]*`)
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
// it: both cases, and the full-width forms.
func variants(r rune) string {
	const fullWidth = 0xFEE0 // U+FF01 is '!' + fullWidth
	var b strings.Builder
	for _, c := range []rune{unicode.ToLower(r), unicode.ToUpper(r)} {
		b.WriteRune(c)
		b.WriteRune(c + fullWidth)
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
	loc := t.re.FindAllStringSubmatchIndex(s, 1)
	if loc == nil {
		return ""
	}
	return s[loc[0][0]:loc[0][1]]
}

// Escape returns s with the '<' of every text a reader could take for the
// tag replaced by '[', so that s can sit inside the fence without closing
// it or opening another.
func (t *Tag) Escape(s string) string {
	locs := t.re.FindAllStringSubmatchIndex(s, -1)
	if locs == nil {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for _, loc := range locs {
		b.WriteString(s[last:loc[2]])
		b.WriteByte('[')
		last = loc[3]
	}
	b.WriteString(s[last:])
	return b.String()
}
