package memory

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/lazyregexp"
	"go.yaml.in/yaml/v3"
)

// source is what a memory was parsed from, kept so that rendering changes
// only what changed.
type source struct {
	open, header, close []byte         // the opening line, the YAML text, the closing line
	parsed              Header         // the header as parsed, to see what changed
	keys                map[string]int // header key → its line in the file ("metadata.type" too)
	typeInMetadata      bool           // type: lives under metadata:
	updatedKey          string         // "updated", or Claude Code's "modified"
	problems            []*ParseError  // field values that could not be read

	nodeOnce sync.Once
	node     *yaml.Node // the header's mapping; parsed on first need by nodeOf
}

// Parse reads a memory file. path is used only in errors. It fails when the
// file has no readable header; fields whose values cannot be read are kept as
// problems that [Memory.Validate] reports, so a listing can still show the file.
func Parse(path string, data []byte) (*Memory, error) {
	perr := func(line int, err error) error { return &ParseError{Path: path, Line: line, Err: err} }
	if len(data) > MaxFileSize {
		return nil, perr(0, ErrTooLarge)
	}
	if !utf8.Valid(data) {
		return nil, perr(invalidUTF8Line(data), ErrNotUTF8)
	}
	if err := conflictError(path, data); err != nil {
		return nil, err
	}
	open, rest, ok := cutLine(data)
	if !ok || strings.TrimRight(string(open), " \t\r\n") != "---" {
		return nil, perr(1, ErrNoHeader)
	}
	header, closing, body, ok := splitHeader(rest)
	if !ok {
		return nil, perr(1, errors.New("header is not closed: no '---' line after the first"))
	}
	src := &source{open: open, header: header, close: closing}
	m := &Memory{Body: string(body), src: src}
	if h, keys, inMeta, updatedKey, ok := fastDecode(string(header)); ok {
		src.keys, src.typeInMetadata, src.updatedKey = keys, inMeta, updatedKey
		m.Header = h
	} else if err := src.decodeYAML(path, m); err != nil {
		return nil, err
	}
	src.parsed = m.Header
	src.parsed.Tags = append([]string(nil), m.Tags...)
	src.parsed.Anchors.Files = append([]FileAnchor(nil), m.Anchors.Files...)
	return m, nil
}

// decodeYAML reads the header with the YAML parser: the general path, and
// the one that explains what is wrong with a header.
func (src *source) decodeYAML(path string, m *Memory) error {
	perr := func(line int, err error) error { return &ParseError{Path: path, Line: line, Err: err} }
	var doc yaml.Node
	if err := yaml.Unmarshal(src.header, &doc); err != nil {
		line, msg := yamlErrorLine(err, src.header)
		if line > 0 {
			line++ // the opening --- line
		}
		return perr(line, fmt.Errorf("invalid YAML: %s", msg))
	}
	if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return perr(2, errors.New("header is not a YAML mapping of keys to values"))
	}
	src.node = doc.Content[0]
	src.nodeOnce.Do(func() {})
	m.Header = src.decode(path)
	return nil
}

// nodeOf returns the header's YAML mapping, parsing it on first use when
// the fast path read the fields.
func (src *source) nodeOf() *yaml.Node {
	src.nodeOnce.Do(func() {
		var doc yaml.Node
		if err := yaml.Unmarshal(src.header, &doc); err != nil || len(doc.Content) == 0 {
			// fastDecode accepts only headers YAML reads (FuzzFastDecode).
			panic(fmt.Sprintf("memory: header the fast path read is not YAML: %v", err))
		}
		src.node = doc.Content[0]
	})
	return src.node
}

// cutLine splits data after its first newline.
func cutLine(data []byte) (line, rest []byte, ok bool) {
	i := bytes.IndexByte(data, '\n')
	if i < 0 {
		return nil, nil, false
	}
	return data[:i+1], data[i+1:], true
}

// splitHeader finds the closing --- line of a header.
func splitHeader(rest []byte) (header, closing, body []byte, ok bool) {
	off := 0
	for off <= len(rest) {
		line := rest[off:]
		end := len(line)
		if i := bytes.IndexByte(line, '\n'); i >= 0 {
			end = i + 1
		}
		if t := strings.TrimRight(string(line[:end]), " \t\r\n"); t == "---" || t == "..." {
			return rest[:off], line[:end], line[end:], true
		}
		if end == len(line) {
			return nil, nil, nil, false
		}
		off += end
	}
	return nil, nil, nil, false
}

func invalidUTF8Line(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			return bytes.Count(data[:i], []byte("\n")) + 1
		}
		i += n
	}
	return 0
}

var yamlLineRE = lazyregexp.New(`^yaml: line (\d+): (.*)$`)

// yamlErrorLine pulls the line out of a yaml error, whose text is the only
// place the package reports it.
func yamlErrorLine(err error, header []byte) (int, string) {
	msg := err.Error()
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		if strings.HasPrefix(m[2], "did not find expected") {
			// yaml reports these at the 0-based line of the flow
			// collection left open, except on the first line, where it
			// says 1: find the opening bracket.
			lines := strings.Split(string(header), "\n")
			if n > 1 || len(lines) < 2 || !strings.ContainsAny(lines[0], "[{") || strings.ContainsAny(lines[1], "[{") {
				n++
			}
		}
		// yaml counts a lone carriage return as a line break; an editor
		// and this file's line numbers count newlines only.
		return min(n, strings.Count(string(header), "\n")+1), m[2]
	}
	return 0, strings.TrimPrefix(msg, "yaml: ")
}

// timeLayouts are the forms a date is accepted in; RFC 3339 is what mnemo writes.
var timeLayouts = []string{
	time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05", "2006-01-02T15:04Z07:00", "2006-01-02",
}

// ParseTime reads a header date in any accepted form; dates without a zone are UTC.
func ParseTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a date (want RFC 3339, like 2026-11-30T10:12:00Z, or 2026-11-30)", s)
}
