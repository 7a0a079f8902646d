package transcript

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/lazyregexp"
)

// maxScanLines bounds how many lines of one output are weighed.
const maxScanLines = 2000

// Patterns that say what a line of tool output tells. They describe the
// shapes of diagnostics (a location, a bound and the value that broke it,
// an error type, an impossibility), not the words of one tool.
var (
	// A source location: path.ext:12, path.ext(6,33), File "x.py", line 8,
	// or the "12:7" column of a report grouped under its file.
	locRE = lazyregexp.New(`(?:^|[\s(\["'=:])(?:[\w.~@+-]*/)*[\w.@+-]+\.[A-Za-z][\w]{0,9}(?::\d+|\(\d+(?:,\s*\d+)?\)|", line \d+)|^\s*\d+:\d+\s`)
	// A stack frame: a location that names where code ran, not what failed.
	frameRE = lazyregexp.New(`^\s*(?:at\s|File "|#\d+\s|\S+\.go:\d+ \+0x)`)
	// A named error type ("TypeError", "java.io.IOException"), an error
	// code ("TS2322", "E0308") or a panic.
	typedRE = lazyregexp.New(`\b[A-Z][A-Za-z0-9]*(?:Error|Exception|Fault)\b|\b[A-Z]{1,4}\d{3,5}\b|\bpanic(?:ked)?\b`)
	// A bound and a value: "max is 9", "want 90", `Expected: "10.00"`.
	limitRE = lazyregexp.New(`(?i)\b(?:max(?:imum)?|min(?:imum)?|limit|at (?:most|least)|exceed(?:s|ed)?|expected|want(?:ed)?|got|received|actual|allowed|(?:greater|less|more|fewer) than)\b\W{0,3}(?:is\s+|of\s+|be\s+)?["'\[(]?-?\d`)
	// What cannot be: "can never match", "is not a function", "no such file".
	negationRE  = lazyregexp.New(`(?i)\b(?:can ?not|can't|could(?: not|n't)|never|unable to|no such|(?:is|are|was|were|does|do|did|will|would|must|should)(?: not|n't)|has no|have no|not (?:found|defined|allowed|permitted|supported))\b`)
	errorWordRE = lazyregexp.New(`(?i)\b(?:errors?|fail(?:s|ed|ure|ures)?|fatal|exception|traceback|denied|refused|undefined|invalid|panicked)\b`)
	// A count of outcomes: "3 errors", "1 failed, 2 passed", "Total errors: 3".
	countRE = lazyregexp.New(`(?i)\b\d+\s+(?:errors?|warnings?|failures?|failed|passed|problems?|issues?|tests?|examples?|skipped)\b|\b(?:errors?|failures?|warnings?|tests?)\s*[:=]\s*\d+`)
	// A count that is not zero of failures or errors.
	failCountRE = lazyregexp.New(`(?i)\b[1-9]\d*\s+(?:failed|failures?|errors?)\b|\b(?:failures?|errors?)\s*[:=]\s*[1-9]`)
	// A line that opens with a failure verdict: "FAIL src/x.test.ts",
	// "--- FAIL: TestX", "error: …", "panic: …".
	verdictRE = lazyregexp.New(`^[^\p{L}\p{N}]*(?:FAIL(?:ED|URE)?|ERROR|[Ee]rror|[Ff]atal|panic)(?:[:\s!]|$)`)
	// A bare status: the exit code, a lone verdict.
	statusRE = lazyregexp.New(`(?i)^(?:exit (?:code|status):? \d+|halting vm with exit status \d+|(?:FAIL|FAILED|ERROR|PASS|PASSED|ok))$`)
	// A log line below error level with no location: npm's "npm warn …",
	// "warning: …", "notice", "deprecated".
	levelRE = lazyregexp.New(`(?i)^\W*(?:[a-z]+ )?(?:warn|warning|notice|info|debug|verbose|deprecated|deprecation)\b`)
	ansiRE  = lazyregexp.New(`\x1b\[[0-9;?]*[A-Za-z]`)
	// The first line of a failed command's result: its exit status.
	exitRE = lazyregexp.New(`^Exit code:? (\d+)$`)
)

// outputLines returns the non-blank lines of a tool's output, cleaned:
// tool wrappers and injected reminders removed, terminal colours dropped,
// a line holding several literal "\n" escapes (output quoted inside an
// error message) split at them, leading box-drawing bars and spaces
// trimmed. At most maxScanLines lines are returned.
func outputLines(s string) []string {
	s = replaceTag(s, "system-reminder", func(string) string { return "" })
	s = strings.NewReplacer("<tool_use_error>", "", "</tool_use_error>", "").Replace(s)
	if strings.IndexByte(s, 0x1b) >= 0 {
		s = ansiRE.ReplaceAllString(s, "")
	}
	var lines []string
	for line := range strings.SplitSeq(s, "\n") {
		if strings.Count(line, `\n`) >= 2 {
			line = strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\"`, `"`).Replace(line)
		}
		for part := range strings.SplitSeq(line, "\n") {
			part = strings.TrimFunc(part, func(r rune) bool {
				return unicode.IsSpace(r) || r == '\u2503' || r == '\u2502' || r == '\r'
			})
			if part != "" {
				lines = append(lines, part)
			}
			if len(lines) >= maxScanLines {
				return lines
			}
		}
	}
	return lines
}

// A lineInfo is what one line of output tells.
type lineInfo struct {
	score int  // how much it tells about what went wrong; below zero: noise
	loc   bool // it points at a place in the code (not a stack frame)
	count bool // it counts outcomes ("3 errors"): a summary
}

// weigh scores each line: a location, a typed error and a bound with its
// value count most, then an impossibility, then a word naming an error;
// a line beside a location (the message of a located diagnostic) gains a
// point. Counts and bare statuses tell nothing on their own; log lines
// below error level without a location, and lines without a letter or a
// digit, are noise.
func weigh(lines []string) []lineInfo {
	info := make([]lineInfo, len(lines))
	for i, line := range lines {
		in := &info[i]
		line = line[:runeOffset(line, maxLineWidth)]      // what is shown is what is weighed
		digits := strings.ContainsAny(line, "0123456789") // locations, limits and counts have some
		hasLoc := digits && locRE.MatchString(line)
		frame := hasLoc && frameRE.MatchString(line)
		switch {
		case !strings.ContainsFunc(line, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }):
			in.score = -5
			continue
		case !hasLoc && levelRE.MatchString(line):
			in.score = -5
			continue
		case len(line) < 40 && statusRE.MatchString(line):
			continue
		case frame:
			in.score = 1
			continue
		}
		in.loc = hasLoc
		if hasLoc {
			in.score += 2
		}
		if typedRE.MatchString(line) {
			in.score += 3
		}
		if digits && limitRE.MatchString(line) {
			in.score += 3
		}
		lower := strings.ToLower(line)
		if mayNegate(lower) && negationRE.MatchString(line) {
			in.score += 2
		}
		if digits && countRE.MatchString(line) {
			in.count = true
			continue // a summary: its words name errors, it tells none
		}
		if mayNameError(lower) && errorWordRE.MatchString(line) {
			in.score++
		}
	}
	for i := range info {
		if info[i].loc || info[i].score < 0 {
			continue
		}
		if (i > 0 && info[i-1].loc) || (i+1 < len(info) && info[i+1].loc) {
			info[i].score++
		}
	}
	return info
}

// mayNegate and mayNameError are cheap tests that a lower-cased line may
// match negationRE or errorWordRE: most lines of output (code, paths,
// progress) do not, and these spare them the regular expression.
func mayNegate(lower string) bool {
	return strings.Contains(lower, "not") || strings.Contains(lower, "n't") || strings.Contains(lower, "never") ||
		strings.Contains(lower, "no ") || strings.Contains(lower, "unable")
}

func mayNameError(lower string) bool {
	for _, w := range [...]string{"err", "fail", "fatal", "exception", "traceback", "denied", "refused", "undefined", "invalid", "panick"} {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// excerptError returns up to n lines of an error output, each cut to
// width characters, in their order: the lines that tell most first (a
// message drawing in the location beside it), then, while there is room,
// a count of outcomes, then the first lines that are not noise.
func excerptError(s string, n, width int) string {
	lines := outputLines(s)
	return joinCut(pickLines(lines, weigh(lines), n, max(n-1, 1), false), width)
}

// pickLines chooses up to n of lines, at most best of them by score;
// the rest of the room goes to the last count and then to the first (or,
// with tail, the last) lines that are not noise. When every line is
// noise, it keeps the first n, or with tail none: a successful command
// that printed only warnings said nothing.
func pickLines(lines []string, info []lineInfo, n, best int, tail bool) []string {
	pick := make([]bool, len(lines))
	count := 0
	take := func(i int) {
		if i >= 0 && i < len(lines) && !pick[i] && count < n {
			pick[i] = true
			count++
		}
	}
	order := make([]int, len(lines))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return info[b].score - info[a].score })
	for _, i := range order {
		if count >= best || info[i].score <= 0 {
			break
		}
		take(i)
		if !info[i].loc { // the location of this message
			if i > 0 && info[i-1].loc {
				take(i - 1)
			} else if i+1 < len(lines) && info[i+1].loc {
				take(i + 1)
			}
		}
	}
	if !tail {
		for i := len(lines) - 1; i >= 0; i-- {
			if info[i].count {
				take(i)
				break
			}
		}
	}
	for k := range lines {
		i := k
		if tail {
			i = len(lines) - 1 - k
		}
		if info[i].score >= 0 {
			take(i)
		}
	}
	if count == 0 && !tail {
		for i := range min(n, len(lines)) {
			take(i)
		}
	}
	var kept []string
	for i, line := range lines {
		if pick[i] {
			kept = append(kept, line)
		}
	}
	return kept
}

// reportsFailure reports whether output lines tell of a failure: a line
// opening with a failure verdict, or a count of failures or errors that
// is not zero.
func reportsFailure(lines []string) bool {
	return slices.ContainsFunc(lines, func(l string) bool {
		return verdictRE.MatchString(l) || failCountRE.MatchString(l)
	})
}

// exitStatus splits a failed command's result into its exit status, when
// its first line gives one ("Exit code 1"), and the rest.
func exitStatus(s string) (code string, rest string) {
	first, rest, _ := strings.Cut(strings.TrimLeft(s, "\n"), "\n")
	if m := exitRE.FindStringSubmatch(strings.TrimSpace(first)); m != nil {
		return m[1], rest
	}
	return "", s
}

// headline picks the line of an error excerpt that tells most.
func headline(excerpt string) string {
	lines := strings.Split(excerpt, "\n")
	info := weigh(lines)
	best := 0
	for i := range lines {
		if info[i].score > info[best].score {
			best = i
		}
	}
	return lines[best]
}

func joinCut(lines []string, width int) string {
	var b strings.Builder
	for i, line := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		if utf8.RuneCountInString(line) > width {
			line = line[:runeOffset(line, width)] + " ..."
		}
		b.WriteString(line)
	}
	return b.String()
}
