package consolidate

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/lazyregexp"
	"github.com/mnemo-dev/mnemo/internal/recall"
)

// A valueKind says what a value is. Kinds only label values (for tests and
// messages): two values are the same when their keys are.
type valueKind uint8

const (
	kindNumber  valueKind = iota + 1 // 42, 1,000 (1000), 100 ms (100ms), 10%
	kindVersion                      // v1.2 (1.2), 1.22.0
	kindPort                         // a number after "port", or after a host's colon
	kindDate                         // 2026-12-04, 2026-12, 12/04/2026
	kindTime                         // 10:00, 5pm
	kindWeekday                      // tuesday (Tue, Tuesdays)
	kindMonth                        // december (Dec)
	kindEnv                          // staging (stg), production (prod), development (dev), qa…
	kindRegion                       // us-east-1, europe-west4
	kindHost                         // db-staging.internal, 10.0.0.1, localhost
	kindURL                          // example.com/docs: the scheme is dropped
	kindPath                         // internal/auth, web (web/), go.mod, ~/.mnemo
	kindIdent                        // `code`, snake_case, camelCase, os.Getenv, --flag, hk3
	kindName                         // Postgres, Alice, AWS: a capitalized word inside a sentence
)

var kindNames = [...]string{
	kindNumber: "number", kindVersion: "version", kindPort: "port", kindDate: "date",
	kindTime: "time", kindWeekday: "weekday", kindMonth: "month", kindEnv: "environment",
	kindRegion: "region", kindHost: "host", kindURL: "url", kindPath: "path",
	kindIdent: "identifier", kindName: "name",
}

func (k valueKind) String() string {
	if int(k) < len(kindNames) && kindNames[k] != "" {
		return kindNames[k]
	}
	return "unknown"
}

// A value is one thing a statement names that tells its fact apart from
// another's: "db-staging.internal" and "db-prod.internal" make two facts of
// one sentence.
type value struct {
	kind valueKind
	key  string // lower-case; environments, days and months by their canonical names
}

func (v value) String() string { return v.kind.String() + ":" + v.key }

// values are the values of a text, and everything the text mentions, so
// that a value of another text can be looked for in it however it is
// written there (`pnpm` against pnpm, Tuesdays against Tue).
type values struct {
	list     []value         // once per key, in order of first appearance
	mentions map[string]bool // every key, and each chunk and word stem of the text, lower-cased
}

// has reports whether the text of vs mentions v.
func (vs values) has(v value) bool { return vs.mentions[v.key] || vs.mentions[stem(v.key)] }

// missingFrom returns the values of vs that o does not mention.
func (vs values) missingFrom(o values) []value {
	var out []value
	for _, v := range vs.list {
		if !o.has(v) {
			out = append(out, v)
		}
	}
	return out
}

// agree reports whether two texts name the same values: neither names one
// the other does not mention.
func agree(a, b values) bool { return len(a.missingFrom(b)) == 0 && len(b.missingFrom(a)) == 0 }

// extractValues returns the values of a text.
func extractValues(text string) values { return scanValues(text, false) }

// scanValues returns the values of a text; mid says that the text starts
// inside a sentence, so that its first word may be a name.
func scanValues(text string, mid bool) values {
	x := &extractor{vs: values{mentions: map[string]bool{}}, keys: map[string]bool{}}
	start := !mid
	for line := range strings.Lines(text) {
		x.line(strings.Fields(line), start)
		start = true
	}
	return x.vs
}

type extractor struct {
	vs   values
	keys map[string]bool // the keys in vs.list
	hits int             // values found, counting repeats
}

func (x *extractor) add(k valueKind, key string) {
	if key == "" || !utf8.ValidString(key) {
		return
	}
	x.hits++
	if x.keys[key] {
		return
	}
	x.keys[key] = true
	x.vs.mentions[key] = true
	x.vs.list = append(x.vs.list, value{kind: k, key: key})
}

// mention records a lower-cased chunk, its stem and its parts as
// mentioned: "db" is mentioned by db-staging.internal.
func (x *extractor) mention(l string) {
	if l == "" {
		return
	}
	x.vs.mentions[l] = true
	x.vs.mentions[stem(l)] = true
	if strings.ContainsAny(l, compoundSeps) {
		for _, p := range strings.FieldsFunc(l, isCompoundSep) {
			x.vs.mentions[p] = true
		}
	}
}

// compoundSeps join the parts of a compound chunk: a host, a path, a name.
const compoundSeps = "-._/:"

func isCompoundSep(r rune) bool { return strings.ContainsRune(compoundSeps, r) }

// line reads the chunks of one line; start says the first begins a sentence.
func (x *extractor) line(chunks []string, start bool) {
	trimmed := make([]string, len(chunks))
	lower := make([]string, len(chunks))
	for i, raw := range chunks {
		trimmed[i] = trimChunk(raw)
		lower[i] = strings.ToLower(trimmed[i])
	}
	inCode := false
	for i := 0; i < len(chunks); i++ {
		raw := chunks[i]
		ticks := strings.Count(raw, "`")
		code := inCode || ticks > 0
		inCode = inCode != (ticks%2 == 1)
		t, l := trimmed[i], lower[i]
		x.mention(l)
		c := chunk{t: t, l: l, start: start}
		if i > 0 {
			c.prev = lower[i-1]
		}
		if i+1 < len(chunks) {
			c.next = lower[i+1]
		}
		n := x.hits
		if x.classify(c) {
			i++ // the next chunk was a unit of this number
			raw = chunks[i]
			x.mention(lower[i])
			inCode = inCode != (strings.Count(raw, "`")%2 == 1)
		}
		if code && x.hits == n && l != "" && !recall.IsStopWord(l) {
			x.add(kindIdent, l) // anything in backticks is code
		}
		start = endsSentence(raw)
	}
}

// A chunk is a whitespace-separated piece of a line, as written (t) and
// lower-cased (l), with its neighbours lower-cased.
type chunk struct {
	t, l, prev, next string
	start            bool // it begins a sentence
}

var (
	dateRE      = lazyregexp.New(`^(\d{4}-\d{2}(?:-\d{2})?)(?:t[\d:.]+z?)?$`)
	slashDateRE = lazyregexp.New(`^\d{1,2}/\d{1,2}/\d{2,4}$`)
	timeRE      = lazyregexp.New(`^(?:\d{1,2}:\d{2}(?::\d{2})?(?:am|pm)?|\d{1,2}(?:am|pm))$`)
	hostPortRE  = lazyregexp.New(`^([a-z0-9][a-z0-9.-]*):(\d{1,5})$`)
	ipRE        = lazyregexp.New(`^\d{1,3}(?:\.\d{1,3}){3}$`)
	versionRE   = lazyregexp.New(`^v(\d+(?:\.\d+)*(?:[-+][0-9a-z.-]+)?)$|^(\d+(?:\.\d+){2,}(?:[-+][0-9a-z.-]+)?)$`)
	decimalRE   = lazyregexp.New(`^\d+\.\d+$`)
	numberRE    = lazyregexp.New(`^([+-]?\d+(?:\.\d+)?)([a-z%]*)$`)
	thousandsRE = lazyregexp.New(`^\d{1,3}(?:,\d{3})+(?:\.\d+)?[a-z%]*$`)
	rangeRE     = lazyregexp.New(`^(\d+)-(\d+)$`)
	hostRE      = lazyregexp.New(`^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$`)
	regionRE    = lazyregexp.New(`^[a-z]{2,}(?:-[a-z]+)+-?\d+[a-z]?$`)
	flagRE      = lazyregexp.New(`^--?[a-z][a-z0-9-]*(?:=\S*)?$`)
	mixedRE     = lazyregexp.New(`^[a-z][a-z0-9-]*\d[a-z0-9-]*$`)
)

// classify adds the values of one chunk, and reports whether the next
// chunk was consumed (a unit after a number).
func (x *extractor) classify(c chunk) (skipNext bool) {
	t, l := c.t, c.l
	if l == "" {
		return false
	}
	defer x.envParts(l)
	switch {
	case strings.Contains(l, "://"):
		_, rest, _ := strings.Cut(l, "://")
		x.add(kindURL, strings.TrimRight(rest, "/"))
	case dateRE.MatchString(l):
		x.add(kindDate, dateRE.FindStringSubmatch(l)[1])
	case slashDateRE.MatchString(l):
		x.add(kindDate, l)
	case timeRE.MatchString(l):
		x.add(kindTime, l)
	case hostPortRE.MatchString(l) && isHost(hostPortRE.FindStringSubmatch(l)[1]):
		m := hostPortRE.FindStringSubmatch(l)
		x.add(kindHost, m[1])
		x.add(kindPort, strings.TrimLeft(m[2], "0"))
	case ipRE.MatchString(l):
		x.add(kindHost, l)
	case versionRE.MatchString(l):
		m := versionRE.FindStringSubmatch(l)
		x.add(kindVersion, m[1]+m[2])
	case decimalRE.MatchString(l):
		k := kindNumber
		if c.prev == "version" || c.prev == "v" || c.prev == "go" || c.prev == "node" || c.prev == "python" {
			k = kindVersion
		}
		x.add(k, l)
	case rangeRE.MatchString(l) && !dateRE.MatchString(l):
		m := rangeRE.FindStringSubmatch(l)
		x.add(kindNumber, m[1])
		x.add(kindNumber, m[2])
	case numberRE.MatchString(l) || thousandsRE.MatchString(l):
		return x.number(c)
	case strings.Contains(l, ","):
		for _, part := range strings.Split(t, ",") {
			x.classify(chunk{t: part, l: strings.ToLower(part), prev: c.prev, start: false})
		}
	case isPath(l):
		x.add(kindPath, pathKey(l))
	case strings.Contains(l, ".") && !allShortLabels(l):
		x.dotted(t)
	case regionRE.MatchString(l):
		x.add(kindRegion, l)
	case flagRE.MatchString(l):
		x.add(kindIdent, l)
	case strings.Contains(l, "_") && strings.Trim(l, "_") != "":
		x.add(kindIdent, l)
	case mixedRE.MatchString(l):
		x.add(kindIdent, l)
	default:
		x.word(c)
	}
	return false
}

// number adds a number, its unit joined to it (100 ms is 100ms), and says
// whether the unit was the next chunk.
func (x *extractor) number(c chunk) bool {
	m := numberRE.FindStringSubmatch(strings.ReplaceAll(c.l, ",", ""))
	if m == nil {
		return false
	}
	n, unit := m[1], m[2]
	kind := kindNumber
	if c.prev == "port" || c.prev == "ports" {
		kind = kindPort
	}
	if u, ok := units[unit]; ok {
		unit = u
	}
	next := unit == "" && units[c.next] != ""
	if next {
		unit = units[c.next]
	}
	x.add(kind, n+unit)
	return next
}

// dotted adds a chunk with dots inside: a file name, a host, or code.
func (x *extractor) dotted(t string) {
	t = strings.TrimSuffix(strings.TrimSuffix(t, "()"), "(")
	l := strings.ToLower(t)
	ext := l[strings.LastIndexByte(l, '.')+1:]
	switch {
	case strings.ContainsAny(t, "_()") || hasInnerUpper(t) && !fileExts[ext]:
		x.add(kindIdent, l)
	case fileExts[ext]:
		x.add(kindPath, l)
	case isHost(l):
		x.add(kindHost, l)
	default:
		x.add(kindIdent, l)
	}
}

// word adds a plain word's value: an environment, a day, a month, a name.
func (x *extractor) word(c chunk) {
	t, l := c.t, c.l
	capital := startsUpper(t)
	switch {
	case envs[l] != "":
		x.add(kindEnv, envs[l])
	case weakEnvs[l] != "" && envNouns[c.next]:
		x.add(kindEnv, weakEnvs[l])
	case weekdays[l] != "":
		x.add(kindWeekday, weekdays[l])
	case capital && weekdayAbbrevs[l] != "":
		x.add(kindWeekday, weekdayAbbrevs[l])
	case months[l] != "" && (capital || !ambiguousMonths[l]) && !(l == "may" && c.start):
		x.add(kindMonth, months[l])
	case capital && monthAbbrevs[l] != "":
		x.add(kindMonth, monthAbbrevs[l])
	case l == "localhost":
		x.add(kindHost, l)
	case recall.IsStopWord(l) || notNames[l] || !isWord(t):
	case hasInnerUpper(t) && isUpper(t) && utf8.RuneCountInString(t) >= 2:
		x.add(kindName, l) // an acronym: AWS, CI
	case hasInnerUpper(t):
		x.add(kindIdent, l) // camelCase, GitHub
	case capital && !c.start:
		x.add(kindName, l)
	}
}

// envParts adds the environments named inside a compound chunk:
// db-prod.internal, deploy-staging, k8s/staging/values.yaml.
func (x *extractor) envParts(l string) {
	if !strings.ContainsAny(l, compoundSeps) {
		return
	}
	for _, p := range strings.FieldsFunc(l, isCompoundSep) {
		if e := envs[p]; e != "" {
			x.add(kindEnv, e)
		}
	}
	if strings.Contains(l, "pre-prod") {
		x.add(kindEnv, "preprod")
	}
}

// isPath reports whether a lower-cased chunk is a path: it has a slash (not
// "and/or"), starts with ~ or is a dot file, or is a file name with a
// known extension.
func isPath(l string) bool {
	switch {
	case strings.Contains(l, "/"):
		return !slashWords[l] && strings.Trim(l, "/.") != "" || l == "/"
	case strings.HasPrefix(l, "~"):
		return true
	case len(l) > 1 && l[0] == '.' && l[1] != '.':
		return true
	}
	return false
}

// pathKey is how a path is compared: web/ and ./web are web.
func pathKey(l string) string {
	if l == "/" {
		return l
	}
	return strings.TrimRight(strings.TrimPrefix(l, "./"), "/")
}

// isHost reports whether l is a host name: localhost, an address, or a
// dotted name whose last label has a letter and is not a file extension.
func isHost(l string) bool {
	if l == "localhost" || ipRE.MatchString(l) {
		return true
	}
	if !hostRE.MatchString(l) || allShortLabels(l) {
		return false
	}
	last := l[strings.LastIndexByte(l, '.')+1:]
	return strings.IndexFunc(last, unicode.IsLetter) >= 0 && !fileExts[last]
}

// allShortLabels reports whether every part between dots is one letter:
// e.g, i.e, U.S.
func allShortLabels(l string) bool {
	for p := range strings.SplitSeq(l, ".") {
		if utf8.RuneCountInString(p) > 1 {
			return false
		}
	}
	return true
}

// trimChunk removes the punctuation around a chunk and a possessive 's.
func trimChunk(s string) string {
	s = strings.TrimLeft(s, "\"'`([{<*_>|")
	s = strings.TrimRight(s, "\"'`)]}>,;:!?.*_|")
	for _, suf := range []string{"'s", "’s"} {
		s = strings.TrimSuffix(s, suf)
	}
	return strings.TrimRight(s, "\"'`)]}>,;:!?.*_|")
}

// endsSentence reports whether a raw chunk closes a sentence.
func endsSentence(raw string) bool {
	s := strings.TrimRight(raw, "\"'`)]*_")
	return strings.HasSuffix(s, ".") || strings.HasSuffix(s, "!") || strings.HasSuffix(s, "?") || strings.HasSuffix(s, ":")
}

func startsUpper(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

func hasInnerUpper(s string) bool {
	for i, r := range s {
		if i > 0 && unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

func isUpper(s string) bool { return strings.ToUpper(s) == s }

// isWord reports whether s is letters only (a word, not a number or a sign).
func isWord(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) && r != '\'' && r != '’' {
			return false
		}
	}
	return s != ""
}
