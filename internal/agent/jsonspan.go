package agent

import (
	"bytes"
	"encoding/json"
	"errors"
)

// A span is a JSON value's place in a text: [start, end), and for an
// object or array its members (key is "" in an array).
type span struct {
	start, end int
	members    []member
	kind       byte // '{', '[' or 0 for a scalar
}

type member struct {
	key   string
	start int // of the key in an object, of the value in an array
	val   span
}

var errSpan = errors.New("not a JSON value")

// scanSpans finds the spans of the JSON value in text.
func scanSpans(text []byte) (span, error) {
	s := &scanner{b: text}
	s.ws()
	v, err := s.value()
	if err != nil {
		return span{}, err
	}
	if s.ws(); s.i != len(text) {
		return span{}, errSpan
	}
	return v, nil
}

type scanner struct {
	b []byte
	i int
}

func (s *scanner) ws() {
	for s.i < len(s.b) && bytes.IndexByte([]byte(" \t\r\n"), s.b[s.i]) >= 0 {
		s.i++
	}
}

func (s *scanner) value() (span, error) {
	if s.i >= len(s.b) {
		return span{}, errSpan
	}
	start := s.i
	switch c := s.b[s.i]; c {
	case '{', '[':
		close := byte('}')
		if c == '[' {
			close = ']'
		}
		v := span{start: start, kind: c}
		s.i++
		for s.ws(); s.i < len(s.b) && s.b[s.i] != close; s.ws() {
			if len(v.members) > 0 {
				if s.b[s.i] != ',' {
					return span{}, errSpan
				}
				s.i++
				s.ws()
			}
			m := member{start: s.i}
			if c == '{' {
				k, err := s.str()
				if err != nil {
					return span{}, err
				}
				if err := json.Unmarshal(s.b[k.start:k.end], &m.key); err != nil {
					return span{}, errSpan
				}
				if s.ws(); s.i >= len(s.b) || s.b[s.i] != ':' {
					return span{}, errSpan
				}
				s.i++
				s.ws()
			}
			val, err := s.value()
			if err != nil {
				return span{}, err
			}
			m.val = val
			v.members = append(v.members, m)
		}
		if s.i >= len(s.b) {
			return span{}, errSpan
		}
		s.i++
		v.end = s.i
		return v, nil
	case '"':
		return s.str()
	}
	for s.i < len(s.b) && bytes.IndexByte([]byte(" \t\r\n,]}"), s.b[s.i]) < 0 {
		s.i++
	}
	if s.i == start {
		return span{}, errSpan
	}
	return span{start: start, end: s.i}, nil
}

func (s *scanner) str() (span, error) {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return span{}, errSpan
	}
	start := s.i
	for s.i++; s.i < len(s.b); s.i++ {
		switch s.b[s.i] {
		case '\\':
			s.i++
		case '"':
			s.i++
			return span{start: start, end: s.i}, nil
		}
	}
	return span{}, errSpan
}

// keepOnly rewrites the value at v in text so that it holds want, which
// must be what it holds with members removed: each kept member keeps its
// text, each removed one goes with its separator, and the rest of the
// formatting stays. ok is false when want is not such a subset.
func keepOnly(text []byte, v span, want any) (string, bool) {
	got := text[v.start:v.end]
	if have, err := parseValue(got); err == nil && bytes.Equal(formatJSON(have), formatJSON(want)) {
		return string(got), true
	}
	var kept []string
	var idx []int
	switch v.kind {
	case '{':
		w, ok := want.(*object)
		if !ok {
			return "", false
		}
		wi := 0
		for i, m := range v.members {
			if wi < len(w.keys) && w.keys[wi] == m.key {
				sub, ok := keepOnly(text, m.val, w.vals[m.key])
				if !ok {
					return "", false
				}
				kept, idx = append(kept, string(text[m.start:m.val.start])+sub), append(idx, i)
				wi++
			}
		}
		if wi != len(w.keys) {
			return "", false
		}
	case '[':
		w, ok := want.([]any)
		if !ok {
			return "", false
		}
		wi := 0
		for i, m := range v.members {
			if wi < len(w) {
				if sub, ok := keepOnly(text, m.val, w[wi]); ok {
					kept, idx = append(kept, sub), append(idx, i)
					wi++
				}
			}
		}
		if wi != len(w) {
			return "", false
		}
	default:
		return "", false
	}
	return assemble(text, v, idx, kept), true
}

// assemble writes the container v with only its members idx, as kept.
func assemble(text []byte, v span, idx []int, kept []string) string {
	open, close := string(text[v.start]), string(text[v.end-1])
	if len(kept) == 0 {
		return open + close
	}
	ms := v.members
	var b bytes.Buffer
	b.WriteString(open)
	b.Write(text[v.start+1 : ms[0].start]) // the space before the first member
	for k, s := range kept {
		if k > 0 {
			i := idx[k-1]
			b.Write(text[ms[i].val.end:ms[i+1].start]) // the separator after the previous kept member
		}
		b.WriteString(s)
	}
	b.Write(text[ms[len(ms)-1].val.end : v.end-1]) // the space before the close
	b.WriteString(close)
	return b.String()
}

// parseValue decodes one JSON value as parseJSON does.
func parseValue(text []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	return decodeValue(dec)
}

// removeOnly returns text with only what want leaves out removed, keeping
// the rest of the person's formatting, when want is text's object with
// members removed; ok is false otherwise.
func removeOnly(text []byte, want *object) ([]byte, bool) {
	v, err := scanSpans(text)
	if err != nil || v.kind != '{' {
		return nil, false
	}
	out, ok := keepOnly(text, v, want)
	if !ok {
		return nil, false
	}
	res := []byte(string(text[:v.start]) + out + string(text[v.end:]))
	if got, err := parseJSON(res); err != nil || !bytes.Equal(formatJSON(got), formatJSON(want)) {
		return nil, false
	}
	return res, true
}
