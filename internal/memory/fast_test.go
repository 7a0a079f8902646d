package memory

import (
	"maps"
	"testing"
)

// yamlDecode reads a header the general way, for comparison.
func yamlDecode(t *testing.T, header string) (*source, Header, error) {
	src := &source{header: []byte(header)}
	m := &Memory{src: src}
	err := src.decodeYAML("f.md", m)
	return src, m.Header, err
}

func TestFastDecodeAgrees(t *testing.T) {
	tests := []struct {
		name, header string
		fast         bool // whether the fast path should take it
	}{
		{"full", fullHeader(), true},
		{"claude", "name: x\ndescription: d\ntype: user\n", true},
		{"metadata", "name: x\ndescription: d\nmetadata:\n  type: feedback\n  origin: cc\nmodified: 2026-10-01\n", true},
		{"empty type, metadata's read", "name: x\ntype:\nmetadata:\n  type: feedback\n", true},
		{"quoted", "name: x\ndescription: 'How to: it''s here'\nwhy: \"plain # not a comment\"\n", true},
		{"block tags", "tags:\n  - a\n  - 'b c'\n", true},
		{"empty values", "why:\nsource: ~\ntags: []\n", true},
		{"comment line", "# note\nname: x\n", true},
		{"crlf", "name: x\r\ntype: user\r\n", true},
		{"comment after value", "name: x # note\n", false},
		{"escape", "description: \"a\\tb\"\n", false},
		{"nested unknown", "extra:\n  deep:\n    - 1\n", false},
		{"bad float", "confidence: high\n", false},
		{"duplicate", "name: a\nname: b\n", false},
		{"anchor and alias", "a: &x 1\nb: *x\n", false},
		{"folded", "description: >\n  folded text\n", false},
		{"flow map", "anchors: {commit: x}\n", false},
		{"tab", "description: a\tb\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, keys, inMeta, updKey, ok := fastDecode(tt.header)
			if ok != tt.fast {
				t.Fatalf("fastDecode(%q) ok = %v, want %v", tt.header, ok, tt.fast)
			}
			if ok {
				checkAgrees(t, tt.header, h, keys, inMeta, updKey)
			}
		})
	}
}

// fullHeader is the header text of the full example file.
func fullHeader() string {
	m, err := Parse("x.md", []byte(full))
	if err != nil {
		panic(err)
	}
	return string(m.src.header)
}

func checkAgrees(t *testing.T, header string, h Header, keys map[string]int, inMeta bool, updKey string) {
	t.Helper()
	src, want, err := yamlDecode(t, header)
	if err != nil {
		t.Fatalf("fastDecode accepted %q, which YAML rejects: %v", header, err)
	}
	if len(src.problems) > 0 {
		t.Fatalf("fastDecode accepted %q, where YAML finds %v", header, src.problems[0])
	}
	if !h.equal(want) || (h.Tags == nil) != (want.Tags == nil) && len(want.Tags) > 0 {
		t.Fatalf("fastDecode(%q) = %+v\nYAML reads %+v", header, h, want)
	}
	if !maps.Equal(keys, src.keys) || inMeta != src.typeInMetadata || updKey != src.updatedKey {
		t.Fatalf("fastDecode(%q) lines %v meta %v updated %q\nYAML: %v %v %q", header, keys, inMeta, updKey, src.keys, src.typeInMetadata, src.updatedKey)
	}
}

func FuzzFastDecode(f *testing.F) {
	f.Add("name: x\ndescription: d\ntype: user\n")
	f.Add("name: x\ndescription: 'a: b'\nmetadata:\n  type: feedback\nmodified: 2026-10-01\ntags: [a, \"b\"]\n")
	f.Add("anchors:\n  commit: 4f2e\n  files:\n    - path: a/b.go\n      sha256: \"0123456789012345\"\n")
	f.Add("tags:\n  - a\n  - b\nconfidence: 0.5\nstatus: superseded\nsuperseded_by: y\nreview_by: 2027-01-01\n")
	f.Fuzz(func(t *testing.T, header string) {
		h, keys, inMeta, updKey, ok := fastDecode(header)
		if ok {
			checkAgrees(t, header, h, keys, inMeta, updKey)
		}
	})
}
