package memory

import (
	"strconv"
	"strings"
	"time"
)

// fastDecode reads a header written in the plain subset of YAML that mnemo
// and Claude Code write: top-level "key: value" lines whose values are plain,
// quoted without escapes, or flat flow lists; a block list of tags; the
// anchors block mnemo renders; a metadata block of plain values. It reports
// ok = false for anything else (and for any value it cannot read), and
// Parse then uses the YAML parser, which also explains problems. Loading a
// vault spends most of its time parsing headers; this makes that ~10× cheaper
// for the files mnemo and Claude Code write. FuzzFastDecode checks that it
// agrees with the YAML path wherever it answers.
func fastDecode(header string) (h Header, lines map[string]int, typeInMetadata bool, updatedKey string, ok bool) {
	h = Header{Confidence: DefaultConfidence, Status: StatusActive}
	if !printable(strings.ReplaceAll(strings.ReplaceAll(header, "\r\n", ""), "\n", "")) {
		return h, nil, false, "", false
	}
	lines = make(map[string]int)
	raw := strings.Split(header, "\n")
	if raw[len(raw)-1] == "" {
		raw = raw[:len(raw)-1]
	}
	values := make(map[string]string)
	for i := 0; i < len(raw); i++ {
		line := strings.TrimSuffix(raw[i], "\r")
		if isBlankOrComment(line) {
			continue
		}
		key, rest, found := strings.Cut(line, ":")
		if !found || !isKey(key) {
			return h, nil, false, "", false
		}
		if _, dup := lines[key]; dup {
			return h, nil, false, "", false
		}
		lines[key] = i + 2 // the file's line: after the opening ---
		block := indented(raw[i+1:])
		if rest != "" {
			if rest[0] != ' ' || len(block) > 0 {
				return h, nil, false, "", false
			}
			v, ok := fastValue(strings.TrimSpace(rest), key == "tags")
			if !ok {
				return h, nil, false, "", false
			}
			values[key] = v
			continue
		}
		i += len(block)
		if len(block) == 0 {
			values[key] = "" // null
			continue
		}
		var ok bool
		switch key {
		case "tags":
			h.Tags, ok = fastBlockList(block)
		case "anchors":
			h.Anchors, ok = fastAnchors(block)
		case "metadata":
			var t string
			var tl int
			t, tl, ok = fastMetadata(block, i-len(block)+3)
			if ok && tl > 0 {
				lines["metadata.type"] = tl
				values["metadata.type"] = t
			}
		}
		if !ok {
			return h, nil, false, "", false
		}
	}
	if len(lines) == 0 {
		return h, nil, false, "", false // YAML reads no mapping here
	}
	return fastFields(h, values, lines)
}

// fastFields sets the header from the top-level values.
func fastFields(h Header, values map[string]string, lines map[string]int) (Header, map[string]int, bool, string, bool) {
	var err error
	h.Name, h.Description, h.Type = values["name"], values["description"], Type(values["type"])
	h.Source, h.Why, h.SupersededBy = values["source"], values["why"], values["superseded_by"]
	if s := values["status"]; s != "" {
		h.Status = Status(s)
	} else if _, ok := lines["status"]; ok {
		h.Status = ""
	}
	if s := values["confidence"]; s != "" {
		if h.Confidence, err = strconv.ParseFloat(s, 64); err != nil {
			return h, nil, false, "", false
		}
	}
	if s := values["tags"]; strings.HasPrefix(s, "[") {
		h.Tags = splitFlow(s)
	} else if s != "" { // tags: a, b
		for t := range strings.SplitSeq(s, ",") {
			if t = strings.TrimSpace(t); t != "" {
				h.Tags = append(h.Tags, t)
			}
		}
	}
	if values["anchors"] != "" {
		return h, nil, false, "", false // a scalar where a mapping belongs: YAML explains
	}
	typeInMetadata := false
	if values["type"] == "" { // no top-level type, or an empty one: the YAML decoder reads metadata's then
		if t, ok := values["metadata.type"]; ok {
			h.Type, typeInMetadata = Type(t), true
		}
	} else {
		delete(lines, "metadata.type") // a top-level type wins; the YAML decoder records only the type it reads
	}
	updatedKey := "updated"
	if _, ok := lines["updated"]; !ok {
		if _, ok := lines["modified"]; ok {
			updatedKey = "modified"
		}
	}
	for _, tf := range []struct {
		key string
		p   *time.Time
	}{{"created", &h.Created}, {updatedKey, &h.Updated}, {"review_by", &h.ReviewBy}} {
		if s := values[tf.key]; s != "" {
			if *tf.p, err = ParseTime(s); err != nil {
				return h, nil, false, "", false
			}
		}
	}
	return h, lines, typeInMetadata, updatedKey, true
}

func isBlankOrComment(line string) bool {
	t := strings.TrimLeft(line, " ")
	return t == "" || t[0] == '#'
}

func isKey(k string) bool {
	if k == "" || len(k) > 128 { // YAML refuses implicit keys past 1024 characters

		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || i > 0 && (c >= '0' && c <= '9' || c == '-')) {
			return false
		}
	}
	return true
}

// indented returns the run of lines at the start of rest that are indented
// (or blank), which YAML reads as the block of the key before them.
func indented(rest []string) []string {
	n := 0
	for n < len(rest) && (strings.HasPrefix(rest[n], " ") || strings.TrimSpace(rest[n]) == "") {
		n++
	}
	for n > 0 && strings.TrimSpace(rest[n-1]) == "" { // trailing blank lines belong to no one
		n--
	}
	return rest[:n]
}

// fastValue reads a scalar (or, for tags, a flow list's text) that YAML
// would read the same way; ok is false when it is not sure.
func fastValue(s string, list bool) (string, bool) {
	if !printable(s) {
		return "", false
	}
	switch {
	case s == "" || s == "~" || s == "null" || s == "Null" || s == "NULL":
		return "", true
	case s[0] == '\'':
		return singleQuoted(s)
	case s[0] == '"':
		if len(s) < 2 || s[len(s)-1] != '"' || strings.ContainsAny(s[1:len(s)-1], "\"\\") {
			return "", false
		}
		return s[1 : len(s)-1], true
	case s[0] == '[':
		if !list || s[len(s)-1] != ']' {
			return "", false
		}
		inner := s[1 : len(s)-1]
		for _, item := range strings.Split(inner, ",") {
			item = strings.TrimSpace(item)
			if item == "" && strings.TrimSpace(inner) == "" {
				continue
			}
			if _, ok := flowItem(item); !ok {
				return "", false
			}
		}
		return s, true
	}
	return s, plainSafe(s, false)
}

// splitFlow returns the items of a flow list fastValue accepted.
func splitFlow(s string) []string {
	inner := strings.TrimSpace(s[1 : len(s)-1])
	if inner == "" {
		return []string{}
	}
	var out []string
	for _, item := range strings.Split(inner, ",") {
		if v, _ := flowItem(strings.TrimSpace(item)); v != "" {
			out = append(out, v)
		}
	}
	return out
}

func flowItem(item string) (string, bool) {
	if item == "" {
		return "", false
	}
	switch item[0] {
	case '\'':
		return singleQuoted(item)
	case '"':
		if len(item) < 2 || item[len(item)-1] != '"' || strings.ContainsAny(item[1:len(item)-1], "\"\\") {
			return "", false
		}
		return item[1 : len(item)-1], item != `""`
	}
	if v := strings.ToLower(item); v == "null" || v == "~" {
		return "", false
	}
	return item, plainSafe(item, true)
}

func singleQuoted(s string) (string, bool) {
	if len(s) < 2 || s[len(s)-1] != '\'' {
		return "", false
	}
	inner := s[1 : len(s)-1]
	if strings.Count(inner, "'")%2 != 0 || strings.Contains(strings.ReplaceAll(inner, "''", ""), "'") {
		return "", false
	}
	return strings.ReplaceAll(inner, "''", "'"), true
}

// plainSafe reports whether s reads as itself as a plain YAML scalar.
func plainSafe(s string, flow bool) bool {
	if s == "" || strings.ContainsRune("-?:,[]{}#&*!|>'\"%@`", rune(s[0])) {
		return false
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") || strings.ContainsAny(s, "\t") {
		return false
	}
	if flow && strings.ContainsAny(s, "[]{},:#") {
		return false
	}
	return true
}

// printable reports whether s holds only characters YAML reads as text
// within one line.
func printable(s string) bool {
	for _, r := range s {
		if r < 0x20 || r >= 0x7f && r <= 0x9f || r == 0x2028 || r == 0x2029 || r == 0xfeff || r == 0xfffd {
			return false
		}
	}
	return true
}

// fastBlockList reads "  - item" lines.
func fastBlockList(block []string) ([]string, bool) {
	var out []string
	indent := ""
	for _, line := range block {
		line = strings.TrimSuffix(line, "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		t := strings.TrimLeft(line, " ")
		if indent == "" {
			indent = line[:len(line)-len(t)]
		}
		if line[:len(line)-len(t)] != indent || !strings.HasPrefix(t, "- ") {
			return nil, false
		}
		v, ok := fastValue(strings.TrimSpace(t[2:]), false)
		if !ok {
			return nil, false
		}
		if v != "" {
			out = append(out, v)
		}
	}
	return out, true
}

// fastAnchors reads the anchors block as mnemo renders it.
func fastAnchors(block []string) (Anchors, bool) {
	var a Anchors
	inFiles := false
	seen := map[string]bool{}
	for _, line := range block {
		line = strings.TrimSuffix(line, "\r")
		switch {
		case strings.TrimSpace(line) == "":
			continue
		case strings.HasPrefix(line, "  commit: ") && !seen["commit"]:
			v, ok := fastValue(strings.TrimSpace(line[len("  commit: "):]), false)
			if !ok {
				return a, false
			}
			a.Commit, inFiles, seen["commit"] = v, false, true
		case strings.TrimRight(line, " ") == "  files:" && !seen["files"]:
			inFiles, seen["files"] = true, true
		case inFiles && strings.HasPrefix(line, "    - "):
			a.Files = append(a.Files, FileAnchor{})
			if !anchorField(&a.Files[len(a.Files)-1], line[len("    - "):]) {
				return a, false
			}
		case inFiles && len(a.Files) > 0 && strings.HasPrefix(line, "      ") && line[6] != ' ':
			if !anchorField(&a.Files[len(a.Files)-1], line[6:]) {
				return a, false
			}
		default:
			return a, false
		}
	}
	return a, true
}

func anchorField(f *FileAnchor, kv string) bool {
	k, v, found := strings.Cut(kv, ":")
	if !found || (v != "" && v[0] != ' ') {
		return false
	}
	val, ok := fastValue(strings.TrimSpace(v), false)
	if !ok {
		return false
	}
	switch {
	case k == "path" && f.Path == "":
		f.Path = val
	case k == "sha256" && f.SHA256 == "":
		f.SHA256 = val
	default:
		return false
	}
	return val != ""
}

// fastMetadata reads a metadata block of plain values, returning its type
// and the type's file line (first is the block's first file line).
func fastMetadata(block []string, first int) (typ string, line int, ok bool) {
	seen := map[string]bool{}
	for j, l := range block {
		l = strings.TrimSuffix(l, "\r")
		if strings.TrimSpace(l) == "" {
			continue
		}
		if !strings.HasPrefix(l, "  ") || l[2] == ' ' {
			return "", 0, false
		}
		k, v, found := strings.Cut(l[2:], ":")
		if !found || !isKey(k) || seen[k] || v == "" || v[0] != ' ' {
			return "", 0, false
		}
		seen[k] = true
		val, ok := fastValue(strings.TrimSpace(v), false)
		if !ok {
			return "", 0, false
		}
		if k == "type" {
			typ, line = val, first+j
		}
	}
	return typ, line, true
}
