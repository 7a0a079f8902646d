package memory

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Render returns the file text of m. A memory parsed by [Parse] whose header
// fields did not change renders to exactly the bytes it was parsed from;
// otherwise only the changed keys are rewritten, unknown keys and key order
// kept, and new keys appended in the order of [Header]. The body is written
// as it is.
func (m *Memory) Render() []byte {
	var buf bytes.Buffer
	if m.src != nil && m.Header.equal(m.src.parsed) {
		buf.Grow(len(m.src.open) + len(m.src.header) + len(m.src.close) + len(m.Body))
		buf.Write(m.src.open)
		buf.Write(m.src.header)
		buf.Write(m.src.close)
		buf.WriteString(m.Body)
		return buf.Bytes()
	}
	node := &yaml.Node{Kind: yaml.MappingNode}
	var old Header
	updatedKey, typeInMetadata := "updated", false
	if m.src != nil {
		node = deepCopy(m.src.nodeOf())
		old = m.src.parsed
		updatedKey, typeInMetadata = m.src.updatedKey, m.src.typeInMetadata
	} else {
		old = Header{Confidence: DefaultConfidence, Status: StatusActive}
	}
	h := m.Header
	set := func(key string, changed bool, v *yaml.Node, empty, absent bool) {
		if changed {
			setKey(node, key, v, empty, absent)
		}
	}
	set("name", h.Name != old.Name, str(h.Name), h.Name == "", h.Name == "")
	set("description", h.Description != old.Description, str(h.Description), h.Description == "", h.Description == "")
	if typeInMetadata && h.Type != old.Type {
		setKey(mapValue(node, "metadata"), "type", str(string(h.Type)), h.Type == "", h.Type == "")
	} else {
		set("type", h.Type != old.Type, str(string(h.Type)), h.Type == "", h.Type == "")
	}
	set("created", !h.Created.Equal(old.Created), timestamp(h.Created), h.Created.IsZero(), h.Created.IsZero())
	set(updatedKey, !h.Updated.Equal(old.Updated), timestamp(h.Updated), h.Updated.IsZero(), h.Updated.IsZero())
	set("source", h.Source != old.Source, str(h.Source), h.Source == "", h.Source == "")
	set("why", h.Why != old.Why, str(h.Why), h.Why == "", h.Why == "")
	set("confidence", h.Confidence != old.Confidence, float(h.Confidence), false, h.Confidence == DefaultConfidence)
	set("status", h.Status != old.Status, str(string(h.Status)), h.Status == "", h.Status == "" || h.Status == StatusActive)
	set("superseded_by", h.SupersededBy != old.SupersededBy, str(h.SupersededBy), h.SupersededBy == "", h.SupersededBy == "")
	set("review_by", !h.ReviewBy.Equal(old.ReviewBy), date(h.ReviewBy), h.ReviewBy.IsZero(), h.ReviewBy.IsZero())
	anchorsChanged := h.Anchors.Commit != old.Anchors.Commit || !slices.Equal(h.Anchors.Files, old.Anchors.Files)
	set("anchors", anchorsChanged, anchors(h.Anchors), h.Anchors.IsZero(), h.Anchors.IsZero())
	set("tags", !slices.Equal(h.Tags, old.Tags), tags(h.Tags), len(h.Tags) == 0, len(h.Tags) == 0)

	buf.WriteString("---\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if len(node.Content) > 0 {
		if err := enc.Encode(node); err != nil {
			// A node built from valid strings (see str) always encodes;
			// reaching here is a bug.
			panic("memory: render header: " + err.Error())
		}
		enc.Close()
	}
	buf.WriteString("---\n")
	buf.WriteString(m.Body)
	return buf.Bytes()
}

// setKey puts v under key in mapping n: replacing the value of an existing
// key (removing the key when the value is empty), or appending the key when it
// is absent and the value is not the absent default.
func setKey(n *yaml.Node, key string, v *yaml.Node, empty, absent bool) {
	if n == nil {
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != key {
			continue
		}
		if empty {
			n.Content = slices.Delete(n.Content, i, i+2)
			return
		}
		old := n.Content[i+1]
		if old.Kind == yaml.ScalarNode && v.Kind == yaml.ScalarNode && (old.Style == yaml.DoubleQuotedStyle || old.Style == yaml.SingleQuotedStyle) {
			v.Style = old.Style
		}
		v.LineComment = old.LineComment
		n.Content[i+1] = v
		return
	}
	if !absent {
		n.Content = append(n.Content, str(key), v)
	}
}

// str is a string scalar. YAML cannot hold invalid UTF-8, which
// [Memory.Validate] refuses in every field: a memory not validated still
// renders, its invalid bytes as U+FFFD, rather than failing the encoder.
func str(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: strings.ToValidUTF8(s, "\uFFFD")}
}

// plain is a scalar written without quotes, its type left to YAML.
func plain(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Value: s} }

func timestamp(t time.Time) *yaml.Node { return plain(FormatTime(t)) }

func date(t time.Time) *yaml.Node { return plain(t.Format(time.DateOnly)) }

func float(f float64) *yaml.Node { return plain(strconv.FormatFloat(f, 'f', -1, 64)) }

func tags(ts []string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
	for _, t := range ts {
		n.Content = append(n.Content, str(t))
	}
	return n
}

func anchors(a Anchors) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode}
	if a.Commit != "" {
		n.Content = append(n.Content, str("commit"), str(a.Commit))
	}
	if len(a.Files) > 0 {
		files := &yaml.Node{Kind: yaml.SequenceNode}
		for _, f := range a.Files {
			files.Content = append(files.Content, &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{
				str("path"), str(f.Path), str("sha256"), str(f.SHA256),
			}})
		}
		n.Content = append(n.Content, str("files"), files)
	}
	return n
}

// FormatTime writes a header time the way mnemo does: RFC 3339 in UTC, to the second.
func FormatTime(t time.Time) string { return t.UTC().Truncate(time.Second).Format(time.RFC3339) }

func deepCopy(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	c := *n
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, e := range n.Content {
		c.Content[i] = deepCopy(e)
	}
	return &c
}
