package extract

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/approval"
	"github.com/mnemo-dev/mnemo/internal/memory"
)

// Limits of a model's reply.
const (
	maxCandidates = 20   // per reply; the prompt asks for at most 12
	maxFactLen    = 1200 // characters of a fact
	maxWhyLen     = 300  // characters of a why
	maxPathLen    = 300  // characters of one path
	maxFiles      = 20   // paths of one candidate
)

// wireKeys are the keys an item of a reply may have.
var wireKeys = []string{"name", "description", "fact", "type", "category", "files", "confidence", "why", "from_tool_output", "evidence", "relation", "memory"}

// evidences are the values of a reply's "evidence".
var evidences = []approval.Evidence{approval.Stated, approval.Confirmed, approval.Inferred, approval.Tool}

// A paths decides which of the paths a model names are kept: those of
// regular files under the session's working directory. When that
// directory is not on this machine, a path is kept only if the digest
// mentions it.
type paths struct {
	cwd       string
	fsys      fs.FS         // the cwd, when it is a directory here
	mentioned func() string // the digest's text, when fsys is nil
}

// newPaths returns the paths of the session whose working directory is
// cwd. digest gives the text a path must be mentioned in when cwd is not
// here; it is called at most once, and only then, when a path is first
// checked.
func newPaths(cwd string, digest func() string) paths {
	p := paths{cwd: strings.TrimSuffix(cwd, "/")}
	if cwd != "" {
		if fi, err := os.Stat(cwd); err == nil && fi.IsDir() {
			p.fsys = os.DirFS(cwd)
		}
	}
	if p.fsys == nil {
		p.mentioned = sync.OnceValue(digest)
	}
	return p
}

// clean returns raw relative to the cwd, slash-separated, or "" when it
// is not a file worth anchoring to.
func (ps paths) clean(raw string) string {
	p := strings.Trim(strings.TrimSpace(raw), "`'\"")
	dir := strings.HasSuffix(p, "/")
	if p == "" || utf8.RuneCountInString(p) > maxPathLen || strings.ContainsAny(p, "\n\x00") {
		return ""
	}
	if strings.HasPrefix(p, "/") {
		rest, ok := strings.CutPrefix(p, ps.cwd+"/")
		if ps.cwd == "" || !ok {
			return ""
		}
		p = rest
	}
	p = path.Clean(strings.TrimPrefix(p, "./"))
	if !fs.ValidPath(p) || p == "." {
		return ""
	}
	if ps.fsys != nil {
		fi, err := fs.Stat(ps.fsys, p)
		if err != nil || !fi.Mode().IsRegular() {
			return ""
		}
		return p
	}
	if dir || !fileLike(p) || !strings.Contains(ps.mentioned(), p) {
		return ""
	}
	return p
}

// fileLike reports whether a path looks like a file rather than a
// folder, for when the folder cannot be looked at: it has an extension
// or is a well-known file without one.
func fileLike(p string) bool {
	base := path.Base(p)
	if ext := path.Ext(base); ext != "" && ext != base && strings.IndexFunc(ext, unicode.IsLetter) >= 0 {
		return true // main.go, web/package.json; not "3.8"
	}
	if strings.HasPrefix(base, ".") && len(base) > 1 && strings.IndexFunc(base, unicode.IsLetter) >= 0 {
		return true // .env, .gitignore
	}
	switch base {
	case "Makefile", "Dockerfile", "Justfile", "Procfile", "Gemfile", "Rakefile", "LICENSE", "Containerfile", "Vagrantfile":
		return true
	}
	return false
}

// A checked reply is what validation made of a model's reply: the valid
// candidates, the problems (each dropping an item, or the whole reply,
// and worth a repair request) and the notes (what was fixed without one:
// a type set by its category, a relation to an unknown memory made new).
type checked struct {
	cands    []Candidate
	problems []string
	notes    []string
}

// parseReply validates a model's reply and returns its valid candidates,
// the problems found, every one of them, and the notes; known are the
// memories the request named. A problem of the reply as a
// whole (not JSON, too many items) leaves no candidate; a problem of one
// item drops that item only, so a caller can keep the others. A reply is a JSON array of objects
// with the keys of [wireKeys]; one Markdown code fence around it is
// tolerated. Enum values are compared without regard to case and space;
// a name that is not a valid slug is dropped (the caller slugs the
// description); paths that are not files under the cwd are dropped.
// Neither of those is a problem worth a repair request.
func parseReply(raw string, ps paths, known map[string]string) checked {
	whole := func(p string) checked { return checked{problems: []string{p}} }
	body := unfence(raw)
	if body == "" {
		return whole("the reply is empty: reply [] when nothing durable happened")
	}
	var items []json.RawMessage
	dec := json.NewDecoder(strings.NewReader(body))
	if err := dec.Decode(&items); err != nil {
		return whole("the reply is not a JSON array: " + jsonProblem(err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return whole("the reply has text after the JSON array")
	}
	if len(items) > maxCandidates {
		return whole(fmt.Sprintf("the reply has %d items, at most %d: keep the most useful", len(items), maxCandidates))
	}
	var r checked
	names := map[string]int{}
	for i, item := range items {
		c, probs, notes := parseItem(item, ps)
		for _, p := range probs {
			r.problems = append(r.problems, fmt.Sprintf("[%d]%s", i, p))
		}
		if len(probs) > 0 {
			continue
		}
		if note := checkRelation(&c, known); note != "" {
			notes = append(notes, note)
		}
		for _, n := range notes {
			r.notes = append(r.notes, fmt.Sprintf("[%d]: %s", i, n))
		}
		if j, dup := names[c.Name]; dup && c.Name != "" {
			r.problems = append(r.problems, fmt.Sprintf("[%d].name: %q is also the name of item %d", i, c.Name, j))
			continue
		}
		names[c.Name] = i
		r.cands = append(r.cands, c)
	}
	return r
}

// unfence trims raw and removes one Markdown code fence around it.
func unfence(raw string) string {
	s := strings.TrimSpace(raw)
	if !strings.HasPrefix(s, "```") {
		return s
	}
	first, rest, ok := strings.Cut(s, "\n")
	if !ok || strings.ContainsAny(strings.TrimPrefix(first, "```"), " {[") {
		return s
	}
	rest = strings.TrimSpace(rest)
	body, found := strings.CutSuffix(rest, "```")
	if !found {
		return s
	}
	return strings.TrimSpace(body)
}

func jsonProblem(err error) string {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Sprintf("%v (at byte %d)", se, se.Offset)
	case errors.As(err, &te):
		return "found a JSON " + te.Value + " where an array belongs"
	}
	return err.Error()
}

// parseItem validates one item; each problem starts with ".field: " or
// ": " for the item as a whole. The notes say what was fixed.
func parseItem(raw json.RawMessage, ps paths) (Candidate, []string, []string) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return Candidate{}, []string{": is not a JSON object"}, nil
	}
	it := &item{obj: obj}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !slices.Contains(wireKeys, k) {
			it.bad(k, "unknown key; the keys are %s", strings.Join(wireKeys, ", "))
		}
	}
	var c Candidate
	c.Description = it.str("description", true)
	c.Name = slugName(it.str("name", false))
	if c.Name == "" && c.Description != "" && !memory.Sluggable(c.Description) {
		it.bad("name", "missing: the description has no Latin letters to make a file name of, so give an English slug of its meaning (like \"no-deploys-on-fridays\")")
	}
	switch n := utf8.RuneCountInString(c.Description); {
	case strings.ContainsAny(c.Description, "\r\n"):
		it.bad("description", "must be one line")
	case n > memory.MaxDescriptionLen:
		it.bad("description", "is %d characters, at most %d", n, memory.MaxDescriptionLen)
	}
	c.Fact = it.str("fact", true)
	if n := utf8.RuneCountInString(c.Fact); n > maxFactLen {
		it.bad("fact", "is %d characters, at most %d: one fact in a few sentences", n, maxFactLen)
	}
	c.Why = it.str("why", false)
	if n := utf8.RuneCountInString(c.Why); n > maxWhyLen {
		it.bad("why", "is %d characters, at most %d", n, maxWhyLen)
	}
	c.Type = memory.Type(it.enum("type", func(v string) bool { return memory.Type(v).Valid() }, "user, feedback, project, reference"))
	c.Category = it.enum("category", func(v string) bool { return slices.Contains(Categories, v) }, strings.Join(Categories, ", "))
	c.Confidence = parseConfidence(obj["confidence"], it.bad)
	c.Files = parseFiles(obj["files"], ps, it.bad)
	if v, ok := obj["from_tool_output"]; ok && !isNull(v) {
		if json.Unmarshal(v, &c.FromToolOutput) != nil {
			it.bad("from_tool_output", "must be true or false")
		}
	}
	notes := it.claims(&c)
	return c, it.problems, notes
}

// claims reads what an item says of its evidence and its relation to a
// memory, caps an inferred fact's confidence by the policy and fits its
// type to its category, once the item is otherwise valid; the notes say
// what was changed.
func (it *item) claims(c *Candidate) []string {
	var notes []string
	if _, ok := it.obj["evidence"]; ok {
		c.Evidence = approval.Evidence(it.enum("evidence", func(v string) bool { return slices.Contains(evidences, approval.Evidence(v)) }, "stated, confirmed, inferred, tool"))
	}
	if c.Evidence == approval.Tool {
		c.FromToolOutput = true
	}
	if _, ok := it.obj["relation"]; ok {
		c.Relation = it.enum("relation", func(v string) bool { return slices.Contains(relations, v) }, strings.Join(relations, ", "))
	}
	c.Memory = strings.ToLower(it.str("memory", false))
	if len(it.problems) > 0 {
		return nil
	}
	if capped := approval.Cap(c.Evidence, c.Confidence); capped != c.Confidence {
		notes = append(notes, fmt.Sprintf("confidence %g capped at %g (evidence: %s)", c.Confidence, capped, c.Evidence))
		c.Confidence = capped
	}
	if note := fitType(c); note != "" {
		notes = append(notes, note)
	}
	return notes
}

// slugName returns a model's name as a slug: lowercased, spaces and
// underscores made hyphens; "" when no valid slug is left.
func slugName(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.Trim(strings.Map(func(r rune) rune {
		if r == ' ' || r == '_' {
			return '-'
		}
		return r
	}, s), "-")
	if !memory.ValidName(s) {
		return ""
	}
	return s
}

// An item is one object of a reply being validated, and its problems.
type item struct {
	obj      map[string]json.RawMessage
	problems []string
}

func (it *item) bad(field, format string, args ...any) {
	it.problems = append(it.problems, "."+field+": "+fmt.Sprintf(format, args...))
}

// str returns a string field, trimmed; a required one must be there and
// not blank.
func (it *item) str(field string, required bool) string {
	v, ok := it.obj[field]
	if !ok || isNull(v) {
		if required {
			it.bad(field, "missing")
		}
		return ""
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		it.bad(field, "must be a string")
		return ""
	}
	s = strings.TrimSpace(s)
	if required && s == "" {
		it.bad(field, "is empty")
	}
	return s
}

// enum returns a required field whose value, lowercased, valid accepts;
// list names the values for the problem.
func (it *item) enum(field string, valid func(string) bool, list string) string {
	v := strings.ToLower(it.str(field, true))
	if v != "" && !valid(v) {
		it.bad(field, "%q is not one of %s", v, list)
	}
	return v
}

func parseConfidence(v json.RawMessage, bad func(string, string, ...any)) float64 {
	if v == nil || isNull(v) {
		bad("confidence", "missing")
		return 0
	}
	var f float64
	if json.Unmarshal(v, &f) != nil {
		bad("confidence", "must be a number from 0 to 1")
		return 0
	}
	if math.IsNaN(f) || f < 0 || f > 1 {
		bad("confidence", "%v is not from 0 to 1", f)
	}
	return f
}

func parseFiles(v json.RawMessage, ps paths, bad func(string, string, ...any)) []string {
	if v == nil || isNull(v) {
		return nil
	}
	var raw []string
	if json.Unmarshal(v, &raw) != nil {
		bad("files", "must be an array of strings")
		return nil
	}
	if len(raw) > maxFiles {
		bad("files", "has %d paths, at most %d", len(raw), maxFiles)
		return nil
	}
	var out []string
	for _, p := range raw {
		if p = ps.clean(p); p != "" && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

func isNull(v json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(v), []byte("null")) }
