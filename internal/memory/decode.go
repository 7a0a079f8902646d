package memory

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// decode reads the fields mnemo owns out of the header node, recording a
// problem for each value it cannot read.
func (s *source) decode(path string) Header {
	h := Header{Confidence: DefaultConfidence, Status: StatusActive}
	s.keys = make(map[string]int)
	s.updatedKey = "updated"
	d := decoder{path: path, src: s}
	n := s.node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if _, dup := s.keys[k.Value]; dup {
			d.problem(k, k.Value, errors.New("appears twice in the header"))
			continue
		}
		s.keys[k.Value] = k.Line + 1
		d.field(&h, k.Value, v)
	}
	if h.Type == "" {
		if md := mapValue(n, "metadata"); md != nil {
			if v := mapValue(md, "type"); v != nil {
				h.Type = Type(d.str(v, "metadata.type"))
				s.typeInMetadata = true
				s.keys["metadata.type"] = v.Line + 1
			}
		}
	}
	if _, ok := s.keys["updated"]; !ok && s.keys["modified"] > 0 {
		if v := mapValue(n, "modified"); v != nil {
			h.Updated = d.time(v, "modified")
			s.updatedKey = "modified"
		}
	}
	return h
}

type decoder struct {
	path string
	src  *source
}

func (d decoder) problem(n *yaml.Node, field string, err error) {
	d.src.problems = append(d.src.problems, &ParseError{Path: d.path, Line: n.Line + 1, Field: field, Err: err})
}

func (d decoder) field(h *Header, key string, v *yaml.Node) {
	switch key {
	case "name":
		h.Name = d.str(v, key)
	case "description":
		h.Description = d.str(v, key)
	case "type":
		h.Type = Type(d.str(v, key))
	case "created":
		h.Created = d.time(v, key)
	case "updated":
		h.Updated = d.time(v, key)
	case "source":
		h.Source = d.str(v, key)
	case "why":
		h.Why = d.str(v, key)
	case "confidence":
		h.Confidence = d.float(v, key)
	case "status":
		h.Status = Status(d.str(v, key))
	case "superseded_by":
		h.SupersededBy = d.str(v, key)
	case "review_by":
		h.ReviewBy = d.time(v, key)
	case "anchors":
		h.Anchors = d.anchors(v)
	case "tags":
		h.Tags = d.tags(v)
	}
}

func (d decoder) str(v *yaml.Node, field string) string {
	if v.Kind != yaml.ScalarNode {
		d.problem(v, field, errors.New("want a single value"))
		return ""
	}
	if v.Tag == "!!null" {
		return ""
	}
	return v.Value
}

func (d decoder) time(v *yaml.Node, field string) time.Time {
	s := d.str(v, field)
	if s == "" {
		return time.Time{}
	}
	t, err := ParseTime(s)
	if err != nil {
		d.problem(v, field, err)
	}
	return t
}

func (d decoder) float(v *yaml.Node, field string) float64 {
	s := d.str(v, field)
	if s == "" {
		return DefaultConfidence
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		d.problem(v, field, fmt.Errorf("%q is not a number between 0 and 1", s))
		return DefaultConfidence
	}
	return f
}

func (d decoder) tags(v *yaml.Node) []string {
	switch v.Kind {
	case yaml.ScalarNode: // tags: auth, billing
		var out []string
		for t := range strings.SplitSeq(d.str(v, "tags"), ",") {
			if t = strings.TrimSpace(t); t != "" {
				out = append(out, t)
			}
		}
		return out
	case yaml.SequenceNode:
		out := make([]string, 0, len(v.Content))
		for _, e := range v.Content {
			if s := d.str(e, "tags"); s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	d.problem(v, "tags", errors.New("want a list of words"))
	return nil
}

func (d decoder) anchors(v *yaml.Node) Anchors {
	var a Anchors
	if v.Kind != yaml.MappingNode {
		if v.Tag != "!!null" {
			d.problem(v, "anchors", errors.New("want a mapping with commit and files"))
		}
		return a
	}
	if c := mapValue(v, "commit"); c != nil {
		a.Commit = d.str(c, "anchors.commit")
	}
	files := mapValue(v, "files")
	if files == nil || files.Tag == "!!null" {
		return a
	}
	if files.Kind != yaml.SequenceNode {
		d.problem(files, "anchors.files", errors.New("want a list of {path, sha256}"))
		return a
	}
	for _, f := range files.Content {
		if f.Kind != yaml.MappingNode {
			d.problem(f, "anchors.files", errors.New("want {path, sha256}"))
			continue
		}
		var fa FileAnchor
		if p := mapValue(f, "path"); p != nil {
			fa.Path = d.str(p, "anchors.files.path")
		}
		if h := mapValue(f, "sha256"); h != nil {
			fa.SHA256 = d.str(h, "anchors.files.sha256")
		}
		a.Files = append(a.Files, fa)
	}
	return a
}

// mapValue returns the value of key in mapping n, or nil.
func mapValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}
