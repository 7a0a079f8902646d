package tomlread

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A String is a string value of a document, at its key path: the table's
// keys, the dotted key's, then those of the inline tables it is in.
type String struct {
	Path  []string
	Value string
}

// Strings returns the string values of doc outside arrays, in order. The
// error names the line where reading stopped; the values read before it
// are returned.
func Strings(doc string) ([]String, error) {
	r := &reader{s: doc}
	err := r.document()
	if err != nil {
		err = fmt.Errorf("line %d: %w", 1+strings.Count(doc[:r.i], "\n"), err)
	}
	return r.out, err
}

// Header reads a table header line ("[a.b]", "[[a.b]]") into its key path,
// as TOML reads it: spaces around the dots, quoted keys ("x", 'x') and a
// comment after the header are allowed. ok is false for a line that is no
// header (a value, or a line of a multi-line array that starts with "[").
func Header(line string) (path []string, ok bool) {
	r := &reader{s: strings.TrimLeft(line, " \t")}
	if !r.peek("[") {
		return nil, false
	}
	path, err := r.header()
	if err != nil || r.endOfLine() != nil {
		return nil, false
	}
	return path, true
}

type reader struct {
	s   string
	i   int
	out []String
}

var errUnexpected = errors.New("unexpected character")

func (r *reader) peek(p string) bool { return strings.HasPrefix(r.s[r.i:], p) }

func (r *reader) spaces() {
	for r.i < len(r.s) && (r.s[r.i] == ' ' || r.s[r.i] == '\t') {
		r.i++
	}
}

// blank skips spaces, newlines and comments.
func (r *reader) blank() {
	for r.i < len(r.s) {
		switch r.s[r.i] {
		case ' ', '\t', '\r', '\n':
			r.i++
		case '#':
			r.comment()
		default:
			return
		}
	}
}

func (r *reader) comment() {
	if end := strings.IndexByte(r.s[r.i:], '\n'); end >= 0 {
		r.i += end
	} else {
		r.i = len(r.s)
	}
}

// endOfLine reads spaces and a comment up to the end of the line.
func (r *reader) endOfLine() error {
	r.spaces()
	if r.peek("#") {
		r.comment()
	}
	if r.i == len(r.s) || r.peek("\n") || r.peek("\r\n") {
		return nil
	}
	return errUnexpected
}

func (r *reader) document() error {
	var table []string
	for {
		r.blank()
		if r.i == len(r.s) {
			return nil
		}
		if r.peek("[") {
			path, err := r.header()
			if err != nil {
				return err
			}
			table = path
		} else {
			keys, err := r.keyPath()
			if err != nil {
				return err
			}
			if err := r.value(append(append([]string(nil), table...), keys...), true); err != nil {
				return err
			}
		}
		if err := r.endOfLine(); err != nil {
			return err
		}
	}
}

// header reads "[keys]" or "[[keys]]".
func (r *reader) header() ([]string, error) {
	closing := "]"
	if r.peek("[[") {
		r.i += 2
		closing = "]]"
	} else {
		r.i++
	}
	var path []string
	for {
		r.spaces()
		k, err := r.key()
		if err != nil {
			return nil, err
		}
		path = append(path, k)
		r.spaces()
		switch {
		case r.peek("."):
			r.i++
		case r.peek(closing):
			r.i += len(closing)
			return path, nil
		default:
			return nil, errUnexpected
		}
	}
}

// keyPath reads a dotted key and the "=" after it.
func (r *reader) keyPath() ([]string, error) {
	var keys []string
	for {
		r.spaces()
		k, err := r.key()
		if err != nil {
			return nil, err
		}
		keys = append(keys, k)
		r.spaces()
		switch {
		case r.peek("."):
			r.i++
		case r.peek("="):
			r.i++
			r.spaces()
			return keys, nil
		default:
			return nil, errUnexpected
		}
	}
}

// key reads one key: bare, "basic" or 'literal'.
func (r *reader) key() (string, error) {
	if r.peek(`"`) || r.peek("'") {
		if r.peek(`"""`) || r.peek("'''") {
			return "", errors.New("a multi-line string as a key")
		}
		return r.str()
	}
	n := r.i
	for n < len(r.s) && isBareKeyByte(r.s[n]) {
		n++
	}
	if n == r.i {
		return "", errors.New("a key expected")
	}
	k := r.s[r.i:n]
	r.i = n
	return k, nil
}

func isBareKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// value reads a value at path, keeping its strings when record is set.
func (r *reader) value(path []string, record bool) error {
	if r.i == len(r.s) {
		return errors.New("a value expected")
	}
	switch r.s[r.i] {
	case '"', '\'':
		s, err := r.str()
		if err != nil {
			return err
		}
		if record {
			r.out = append(r.out, String{Path: path, Value: s})
		}
		return nil
	case '{':
		return r.inlineTable(path, record)
	case '[':
		return r.array()
	}
	// A number, a boolean or a date ("1979-05-27 07:32:00Z" holds a space).
	n := r.i
	for n < len(r.s) && !strings.ContainsRune(",]}#\r\n", rune(r.s[n])) {
		n++
	}
	if strings.TrimSpace(r.s[r.i:n]) == "" {
		return errors.New("a value expected")
	}
	r.i = n
	return nil
}

func (r *reader) inlineTable(path []string, record bool) error {
	r.i++
	r.spaces()
	if r.peek("}") {
		r.i++
		return nil
	}
	for {
		keys, err := r.keyPath()
		if err != nil {
			return err
		}
		if err := r.value(append(append([]string(nil), path...), keys...), record); err != nil {
			return err
		}
		r.spaces()
		switch {
		case r.peek(","):
			r.i++
		case r.peek("}"):
			r.i++
			return nil
		default:
			return errUnexpected
		}
	}
}

func (r *reader) array() error {
	r.i++
	for {
		r.blank()
		if r.peek("]") {
			r.i++
			return nil
		}
		if err := r.value(nil, false); err != nil {
			return err
		}
		r.blank()
		switch {
		case r.peek(","):
			r.i++
		case r.peek("]"):
			r.i++
			return nil
		default:
			return errUnexpected
		}
	}
}

// str reads a string of any of TOML's four kinds.
func (r *reader) str() (string, error) {
	for _, q := range []string{`"""`, "'''"} {
		if r.peek(q) {
			r.i += 3
			if r.peek("\n") {
				r.i++
			} else if r.peek("\r\n") {
				r.i += 2
			}
			end := strings.Index(r.s[r.i:], q)
			if end < 0 {
				return "", errors.New("an unterminated string")
			}
			end += r.i
			for k := 0; k < 2 && end+3 < len(r.s) && r.s[end+3] == q[0]; k++ {
				end++ // up to two quotes before the closing three are the string's
			}
			body := r.s[r.i:end]
			r.i = end + 3
			if q == "'''" {
				return body, nil
			}
			return unescape(body, true)
		}
	}
	q := r.s[r.i]
	for n := r.i + 1; n < len(r.s); n++ {
		switch c := r.s[n]; {
		case c == '\n':
			return "", errors.New("a newline in a string")
		case c == '\\' && q == '"':
			n++
		case c == q:
			body := r.s[r.i+1 : n]
			r.i = n + 1
			if q == '\'' {
				return body, nil
			}
			return unescape(body, false)
		}
	}
	return "", errors.New("an unterminated string")
}

// unescape reads the escapes of a basic string; in a multi-line one, a
// backslash at the end of a line also removes the line's end and the
// blanks after it.
func unescape(body string, multiline bool) (string, error) {
	if !strings.Contains(body, `\`) {
		return body, nil
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		if i+1 == len(body) {
			return "", errors.New("a backslash ends a string")
		}
		i++
		switch e := body[i]; e {
		case 'b':
			b.WriteByte('\b')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'f':
			b.WriteByte('\f')
		case 'r':
			b.WriteByte('\r')
		case 'e':
			b.WriteByte(0x1b)
		case '"', '\\':
			b.WriteByte(e)
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if i+n >= len(body) {
				return "", errors.New("a short escape")
			}
			v, err := strconv.ParseUint(body[i+1:i+1+n], 16, 32)
			if err != nil || !utf8.ValidRune(rune(v)) {
				return "", fmt.Errorf("a bad escape \\%c%s", e, body[i+1:i+1+n])
			}
			b.WriteRune(rune(v))
			i += n
		default:
			rest := strings.TrimLeft(body[i:], " \t")
			if !multiline || !(strings.HasPrefix(rest, "\n") || strings.HasPrefix(rest, "\r\n")) {
				return "", fmt.Errorf("an unknown escape \\%c", e)
			}
			rest = strings.TrimLeft(rest, " \t\r\n")
			i = len(body) - len(rest) - 1
		}
	}
	return b.String(), nil
}

// Quote spells s as a TOML basic string, which [Strings] and [Header]
// read back as s: quotes, backslashes and control characters escaped.
func Quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteRune(c)
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", c)
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
