package memory

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mnemo-dev/mnemo/internal/lazyregexp"
)

// AbsoluteDates rewrites the relative date expressions in a memory's text as
// absolute ones, resolved against now, the time the memory is written, in
// now's location. A memory is read long after it was written: "next month" in
// a memory written on 2026-11-30 must say "2026-12", or a reader in March
// takes it for April.
//
// Only the phrase itself is replaced; the text around it is kept byte for
// byte. Phrases are matched without regard to case, and a replacement begins
// with a capital letter when the phrase did. With now on Monday 2026-11-30:
//
//	today, tomorrow, yesterday        2026-11-30, 2026-12-01, 2026-11-29
//	tonight, last night               the night of 2026-11-30, the night of 2026-11-29
//	this/next/last week               the week of 2026-11-30 (weeks start on Monday, as in ISO 8601)
//	this/next/last month              2026-11, 2026-12, 2026-10
//	this/next/last quarter            2026-Q4, 2027-Q1, 2026-Q3
//	this/next/last year               2026, 2027, 2025
//	in 2 days, in two weeks           on 2026-12-02, on 2026-12-14
//	in 3 months, in 1 year            in 2027-02, in 2027
//	3 days ago, two months ago        on 2026-11-27, in 2026-09 (no "on"/"in" after since, by, from…)
//	end of (the/this/next/last) month end of 2026-11 (2026-11-30); also quarter and year
//	end of week                       end of 2026-W49 (Friday 2026-12-04): a week ends on its Friday
//	EOD, EOW, EOM, EOQ, EOY           end of day 2026-11-30, then as "end of week" and so on
//	Q3, Q3 next year, last year's Q3  2026-Q3, 2027-Q3, 2025-Q3
//
// A count is digits (up to three) or a word from one to twelve: "in a week"
// and "a few days ago" are left alone.
//
// Weekdays follow these rules, where "Friday" is any weekday:
//
//	this Friday              the coming Friday, today if today is Friday (0 to 6 days ahead): Friday 2026-12-04
//	next Friday              the first Friday after today (1 to 7 days ahead): Friday 2026-12-04
//	last Friday              the last Friday before today (1 to 7 days back): Friday 2026-11-27
//	Friday next week         the Friday of next week's Monday-to-Sunday week: Friday 2026-12-11
//	on/by/until/till Friday  as "this Friday", with the date added: by Friday 2026-12-04
//
// So "next Friday" said on a Monday is the Friday four days later; write
// "Friday next week" for the one after. A bare "on Friday" is taken as the
// coming one even when the sentence is in the past tense; "last Friday" says
// otherwise. Any other weekday is left alone: "Friday is deploy day",
// "standup on Mondays".
//
// A quarter written without a year (Q1 to Q4, capital Q only) is taken to be
// in now's year, even when that quarter is over: Q1 written in November 2026
// is 2026-Q1. A quarter with a year next to it ("Q3 2027", "FY26 Q3") is left
// alone. Month names are never dates: "May" is a verb as often as a month.
//
// Some phrases are left alone on purpose:
//   - after "the", this/next/last with a week, month, quarter or year (and
//     "last night", "next Friday") usually names a rolling span or an
//     ordinal, not a calendar unit: "in the last year", "the next week's
//     plan", "the last Friday of the month". Without "the" the phrase is
//     rewritten, possessives included: "last year's numbers" becomes "2025's
//     numbers".
//   - text inside inline code spans, fenced code blocks, URLs, Markdown link
//     targets and [[links]];
//   - phrases glued to a word, a path or an identifier: "yesterdays",
//     "todayness", "nextMonth", "last-week.md", "today_flag";
//   - a phrase that already has a date after it: "by Friday 2026-12-04",
//     "next week (2026-12-07)".
//
// Every replacement is absolute and contains no phrase that is rewritten, so
// AbsoluteDates(AbsoluteDates(s, now), now) == AbsoluteDates(s, now).
func AbsoluteDates(text string, now time.Time) string {
	edits := dateEdits(text, now)
	if len(edits) == 0 {
		return text
	}
	var b strings.Builder
	b.Grow(len(text) + 16*len(edits))
	last := 0
	for _, e := range edits {
		b.WriteString(text[last:e.start])
		b.WriteString(e.repl)
		last = e.end
	}
	b.WriteString(text[last:])
	return b.String()
}

// HasRelativeDate reports whether text holds a relative date expression that
// [AbsoluteDates] would rewrite, whatever the time of writing.
func HasRelativeDate(text string) bool {
	return len(dateEdits(text, time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))) > 0
}

// A dateRule is one kind of relative date expression: a pattern and the
// function that resolves a match of it.
type dateRule struct {
	pattern *lazyregexp.Regexp
	// resolve returns the absolute text to put in place of the match, or
	// false to leave the match as it is.
	resolve func(m dateMatch) (string, bool)
}

const (
	weekdayPattern = `monday|tuesday|wednesday|thursday|friday|saturday|sunday`
	countPattern   = `\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve`
)

// dateRules are tried together; when matches overlap, the one that starts
// first wins, and of two starting at the same place, the one listed first.
var dateRules = []dateRule{
	{lazyregexp.New(`(?i)\bend\s+of\s+(?:(the|this|next|last)\s+)?(week|month|quarter|year)\b`), resolveEndOf},
	{lazyregexp.New(`\b(EOD|EOW|EOM|EOQ|EOY)\b`), resolveEndAbbrev},
	{lazyregexp.New(`(?i:\b(this|next|last)\s+year(?:'s)?)\s+Q([1-4])\b`), resolveYearQuarter},
	{lazyregexp.New(`\bQ([1-4])(?:\s+(?i:(?:of\s+)?(this|next|last)\s+year))?\b`), resolveQuarter},
	{lazyregexp.New(`(?i)\b(` + weekdayPattern + `)\s+(this|next|last)\s+week\b`), resolveWeekdayOfWeek},
	{lazyregexp.New(`(?i)\b(this|next|last)\s+(` + weekdayPattern + `)\b`), resolveWeekdayRelative},
	{lazyregexp.New(`(?i)\b(?:on|by|until|till)\s+(` + weekdayPattern + `)\b`), resolveWeekdayBare},
	{lazyregexp.New(`(?i)\bin\s+(` + countPattern + `)\s+(day|week|month|year)s?\b`), resolveIn},
	{lazyregexp.New(`(?i)\b(` + countPattern + `)\s+(day|week|month|year)s?\s+ago\b`), resolveAgo},
	{lazyregexp.New(`(?i)\b(this|next|last)\s+(week|month|quarter|year)\b`), resolveRelativeUnit},
	{lazyregexp.New(`(?i)\b(today|tonight|tomorrow|yesterday|last\s+night)\b`), resolveDay},
}

// A dateMatch is one match of a dateRule's pattern, with what its resolver
// needs to know.
type dateMatch struct {
	text   string    // the matched phrase as written
	sub    []string  // submatches, lowercased; sub[0] is the whole match
	before string    // up to contextLen bytes of text before the phrase
	after  string    // up to contextLen bytes of text after the phrase
	today  time.Time // midnight of the day of writing, in its location
}

// contextLen bounds how far a resolver looks around its phrase.
const contextLen = 32

var (
	prevWordRE  = lazyregexp.New(`([A-Za-z]+)\s+$`)
	dateAfterRE = lazyregexp.New(`^[\s,(]*\d{4}-\d{2}-\d{2}`)
	weekAfterRE = lazyregexp.New(`(?i)^\s+(?:this|next|last)\s+week\b`)
	yearAfterRE = lazyregexp.New(`(?i)^(?:\s*(?:of\s+)?|\s*/\s*)(?:\d{4}|'\d{2}|FY\s*\d{2,4})\b`)
	yearPrevRE  = lazyregexp.New(`(?i)(?:\d{4}|'\d{2}|\bFY\s*\d{0,4})[\s/]*$`)
)

// prevWord returns the word just before the phrase, lowercased, or "" when
// the phrase does not follow a word and a space.
func (m dateMatch) prevWord() string {
	sm := prevWordRE.FindStringSubmatch(m.before)
	if sm == nil {
		return ""
	}
	return strings.ToLower(sm[1])
}

// A dateEdit replaces text[start:end] with repl.
type dateEdit struct {
	start, end int
	repl       string
}

// dateEdits returns the replacements AbsoluteDates makes in text, in order and
// not overlapping.
func dateEdits(text string, now time.Time) []dateEdit {
	cands := dateCandidates(text)
	if len(cands) == 0 {
		return nil
	}
	protected := protectedSpans(text)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	var edits []dateEdit
	end := 0 // end of the last edit: later matches must start after it
	for _, c := range cands {
		start, stop := c.loc[0], c.loc[1]
		if start < end || !allASCII(text[start:stop]) ||
			protected.overlaps(start, stop) || glued(text, start, stop) {
			continue
		}
		m := newDateMatch(text, c.loc, today)
		if dateAfterRE.MatchString(m.after) { // "next Friday (2026-12-04)"
			continue
		}
		repl, ok := dateRules[c.rule].resolve(m)
		if !ok {
			continue
		}
		edits = append(edits, dateEdit{start, stop, matchCase(m.text, repl)})
		end = stop
	}
	return edits
}

// A dateCandidate is a match of dateRules[rule] at loc, before any checks.
type dateCandidate struct {
	rule int
	loc  []int // as from FindAllStringSubmatchIndex
}

// dateCandidates returns every rule's matches in text, by position and then
// by rule order.
func dateCandidates(text string) []dateCandidate {
	var cands []dateCandidate
	for i, r := range dateRules {
		for _, loc := range r.pattern.FindAllStringSubmatchIndex(text, -1) {
			cands = append(cands, dateCandidate{i, loc})
		}
	}
	slices.SortStableFunc(cands, func(a, b dateCandidate) int {
		return cmp.Compare(a.loc[0], b.loc[0])
	})
	return cands
}

func newDateMatch(text string, loc []int, today time.Time) dateMatch {
	start, end := loc[0], loc[1]
	m := dateMatch{
		text:   text[start:end],
		before: text[max(0, start-contextLen):start],
		after:  text[end:min(len(text), end+contextLen)],
		today:  today,
	}
	for i := 0; i < len(loc); i += 2 {
		s := ""
		if loc[i] >= 0 {
			s = strings.ToLower(text[loc[i]:loc[i+1]])
		}
		m.sub = append(m.sub, s)
	}
	return m
}

// glued reports whether the phrase at text[start:end] is part of a longer
// word, a path or an identifier, such as "yesterdays", "todayness",
// "last-week.md" or "/today/".
func glued(text string, start, end int) bool {
	const joiners = `-/_.@#$\`
	if start > 0 {
		r, _ := utf8.DecodeLastRuneInString(text[:start])
		if wordRune(r) || strings.ContainsRune(joiners, r) {
			return true
		}
	}
	if end < len(text) {
		r, size := utf8.DecodeRuneInString(text[end:])
		if wordRune(r) {
			return true
		}
		if strings.ContainsRune(joiners, r) {
			next, _ := utf8.DecodeRuneInString(text[end+size:])
			return wordRune(next)
		}
	}
	return false
}

func wordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

func allASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// matchCase capitalizes repl when the phrase it replaces was capitalized, as
// at the start of a sentence: "Next week" becomes "The week of …". A phrase in
// capitals, such as "EOD", is an abbreviation, not a sentence start.
func matchCase(phrase, repl string) string {
	if len(phrase) < 2 || repl == "" {
		return repl
	}
	upper := func(c byte) bool { return 'A' <= c && c <= 'Z' }
	lower := func(c byte) bool { return 'a' <= c && c <= 'z' }
	if upper(phrase[0]) && lower(phrase[1]) && lower(repl[0]) {
		return string(repl[0]-'a'+'A') + repl[1:]
	}
	return repl
}

// unitOffsets maps the word before a unit to how many units away it points.
var unitOffsets = map[string]int{"": 0, "the": 0, "this": 0, "next": 1, "last": -1}

var numberWords = map[string]int{
	"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
	"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}

func parseCount(s string) int {
	if n, ok := numberWords[s]; ok {
		return n
	}
	n, _ := strconv.Atoi(s) // the pattern allows only 1 to 3 digits
	return n
}

var weekdayByName = map[string]time.Weekday{
	"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday,
	"wednesday": time.Wednesday, "thursday": time.Thursday,
	"friday": time.Friday, "saturday": time.Saturday,
}

// agoPrepositions are the words after which "3 days ago" becomes a bare date:
// "since 3 days ago" reads "since 2026-11-27", not "since on 2026-11-27".
var agoPrepositions = map[string]bool{
	"after": true, "at": true, "before": true, "by": true, "during": true,
	"from": true, "in": true, "of": true, "on": true, "since": true,
	"than": true, "till": true, "to": true, "until": true,
}

func resolveDay(m dateMatch) (string, bool) {
	switch m.sub[1] {
	case "today":
		return isoDate(m.today), true
	case "tonight":
		return "the night of " + isoDate(m.today), true
	case "tomorrow":
		return isoDate(m.today.AddDate(0, 0, 1)), true
	case "yesterday":
		return isoDate(m.today.AddDate(0, 0, -1)), true
	}
	if m.prevWord() == "the" { // "the last night of the offsite"
		return "", false
	}
	return "the night of " + isoDate(m.today.AddDate(0, 0, -1)), true
}

func resolveRelativeUnit(m dateMatch) (string, bool) {
	if m.prevWord() == "the" { // "in the last year": a rolling span
		return "", false
	}
	unit := m.sub[2]
	return periodName(periodStart(m.today, unit, unitOffsets[m.sub[1]]), unit), true
}

func resolveEndOf(m dateMatch) (string, bool) {
	unit := m.sub[2]
	return endOfPeriod(periodStart(m.today, unit, unitOffsets[m.sub[1]]), unit), true
}

// abbrevUnits maps the abbreviations EOW, EOM, EOQ and EOY to their units.
var abbrevUnits = map[string]string{"eow": "week", "eom": "month", "eoq": "quarter", "eoy": "year"}

func resolveEndAbbrev(m dateMatch) (string, bool) {
	unit, ok := abbrevUnits[m.sub[1]]
	if !ok { // EOD
		return "end of day " + isoDate(m.today), true
	}
	return endOfPeriod(periodStart(m.today, unit, 0), unit), true
}

func resolveIn(m dateMatch) (string, bool) {
	name, exact := shifted(m.today, m.sub[2], parseCount(m.sub[1]))
	if exact {
		return "on " + name, true
	}
	return "in " + name, true
}

func resolveAgo(m dateMatch) (string, bool) {
	name, exact := shifted(m.today, m.sub[2], -parseCount(m.sub[1]))
	switch {
	case agoPrepositions[m.prevWord()]:
		return name, true
	case exact:
		return "on " + name, true
	}
	return "in " + name, true
}

func resolveWeekdayRelative(m dateMatch) (string, bool) {
	if m.prevWord() == "the" { // "the last Friday of the month"
		return "", false
	}
	wd := weekdayByName[m.sub[2]]
	ahead := daysUntil(m.today, wd) // 0 to 6
	switch m.sub[1] {
	case "next":
		if ahead == 0 {
			ahead = 7
		}
	case "last":
		ahead -= 7
	}
	return weekdayDate(m.today.AddDate(0, 0, ahead)), true
}

func resolveWeekdayBare(m dateMatch) (string, bool) {
	if weekAfterRE.MatchString(m.after) { // "on Friday next week"
		return "", false
	}
	wd := weekdayByName[m.sub[1]]
	return m.text + " " + isoDate(m.today.AddDate(0, 0, daysUntil(m.today, wd))), true
}

func resolveWeekdayOfWeek(m dateMatch) (string, bool) {
	monday := periodStart(m.today, "week", unitOffsets[m.sub[2]])
	daysAfterMonday := (int(weekdayByName[m.sub[1]]) + 6) % 7
	return weekdayDate(monday.AddDate(0, 0, daysAfterMonday)), true
}

func resolveQuarter(m dateMatch) (string, bool) {
	if m.sub[2] == "" && (yearPrevRE.MatchString(m.before) || yearAfterRE.MatchString(m.after)) {
		return "", false // "2027 Q3", "Q3 2027": already absolute
	}
	return quarterName(m.today.Year()+unitOffsets[m.sub[2]], m.sub[1]), true
}

func resolveYearQuarter(m dateMatch) (string, bool) {
	return quarterName(m.today.Year()+unitOffsets[m.sub[1]], m.sub[2]), true
}

// daysUntil returns how many days after day the next wd falls: 0 if day is a wd.
func daysUntil(day time.Time, wd time.Weekday) int {
	return (int(wd) - int(day.Weekday()) + 7) % 7
}

// shifted returns the name of the day, week, month or year n units from today
// and whether it names a single day: days and weeks resolve to a date, months
// and years to the month or year.
func shifted(today time.Time, unit string, n int) (name string, exact bool) {
	switch unit {
	case "day":
		return isoDate(today.AddDate(0, 0, n)), true
	case "week":
		return isoDate(today.AddDate(0, 0, 7*n)), true
	}
	return periodName(periodStart(today, unit, n), unit), false
}

// periodStart returns the first day of the week (a Monday), month, quarter or
// year that is n of them after the one holding day.
func periodStart(day time.Time, unit string, n int) time.Time {
	y, mo, d := day.Date()
	loc := day.Location()
	switch unit {
	case "week":
		monday := d - (int(day.Weekday())+6)%7
		return time.Date(y, mo, monday+7*n, 0, 0, 0, 0, loc)
	case "month":
		return time.Date(y, mo+time.Month(n), 1, 0, 0, 0, 0, loc)
	case "quarter":
		first := (mo-1)/3*3 + 1
		return time.Date(y, first+time.Month(3*n), 1, 0, 0, 0, 0, loc)
	}
	return time.Date(y+n, time.January, 1, 0, 0, 0, 0, loc)
}

// periodName names the period of the given unit that begins on start.
func periodName(start time.Time, unit string) string {
	switch unit {
	case "week":
		return "the week of " + isoDate(start)
	case "month":
		return start.Format("2006-01")
	case "quarter":
		return fmt.Sprintf("%d-Q%d", start.Year(), (start.Month()-1)/3+1)
	}
	return strconv.Itoa(start.Year())
}

// endOfPeriod names the last day of the period of the given unit that begins
// on start. A week ends on its Friday, the end of the working week, and is
// named by its ISO 8601 number: "end of the week of 2026-11-30" would hold
// "end of the week", which AbsoluteDates rewrites.
func endOfPeriod(start time.Time, unit string) string {
	if unit == "week" {
		friday := start.AddDate(0, 0, 4)
		y, w := friday.ISOWeek()
		return fmt.Sprintf("end of %d-W%02d (%s)", y, w, weekdayDate(friday))
	}
	next := periodStart(start, unit, 1)
	return fmt.Sprintf("end of %s (%s)", periodName(start, unit), isoDate(next.AddDate(0, 0, -1)))
}

func quarterName(year int, q string) string { return strconv.Itoa(year) + "-Q" + q }

func isoDate(t time.Time) string { return t.Format("2006-01-02") }

func weekdayDate(t time.Time) string { return t.Weekday().String() + " " + isoDate(t) }

// A protectedSpan is a part of a text, text[start:end], that AbsoluteDates
// leaves alone.
type protectedSpan struct{ start, end int }

// A protectedSet holds spans sorted by start, none overlapping another.
type protectedSet []protectedSpan

// overlaps reports whether text[start:end] overlaps a span in ps.
func (ps protectedSet) overlaps(start, end int) bool {
	i, _ := slices.BinarySearchFunc(ps, start, func(s protectedSpan, start int) int {
		return cmp.Compare(s.end, start+1) // the first span that ends after start
	})
	return i < len(ps) && ps[i].start < end
}

// protectedPatterns match the parts of a text that are addresses, not prose:
// URLs, Markdown link targets and [[links]].
var protectedPatterns = []*lazyregexp.Regexp{
	lazyregexp.New(`(?i)\b(?:[a-z][a-z0-9+.\-]*://|www\.)\S*`),
	lazyregexp.New(`\]\([^)\s]*\)`),
	lazyregexp.New(`\[\[[^\[\]\n]*\]\]`),
}

// protectedSpans returns the parts of text that are not prose: fenced code
// blocks, inline code spans, URLs, Markdown link targets and [[links]].
func protectedSpans(text string) protectedSet {
	ss := append(fencedCodeBlocks(text), inlineCodeSpans(text)...)
	for _, re := range protectedPatterns {
		for _, loc := range re.FindAllStringIndex(text, -1) {
			ss = append(ss, protectedSpan{loc[0], loc[1]})
		}
	}
	slices.SortFunc(ss, func(a, b protectedSpan) int { return cmp.Compare(a.start, b.start) })
	var merged protectedSet
	for _, s := range ss {
		if n := len(merged); n > 0 && s.start <= merged[n-1].end {
			merged[n-1].end = max(merged[n-1].end, s.end)
			continue
		}
		merged = append(merged, s)
	}
	return merged
}

// fencedCodeBlocks returns the code blocks fenced by lines of three or more
// backticks or tildes, fences included. As in CommonMark, a fence may be
// indented by up to three spaces, and a block left open runs to the end.
func fencedCodeBlocks(text string) []protectedSpan {
	var ss []protectedSpan
	fence := "" // the open block's fence; "" outside a block
	open := 0
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n') + start + 1
		if end == start { // the last line has no newline
			end = len(text)
		}
		line := strings.TrimRight(text[start:end], " \t\r\n")
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case len(line)-len(trimmed) > 3:
		case fence == "":
			if f := fenceOf(trimmed); f != "" {
				fence, open = f, start
			}
		case strings.HasPrefix(trimmed, fence) && strings.Trim(trimmed, fence[:1]) == "":
			ss = append(ss, protectedSpan{open, end})
			fence = ""
		}
		start = end
	}
	if fence != "" {
		ss = append(ss, protectedSpan{open, len(text)})
	}
	return ss
}

// fenceOf returns the run of three or more backticks or tildes that line
// starts with, or "".
func fenceOf(line string) string {
	if line == "" || (line[0] != '`' && line[0] != '~') {
		return ""
	}
	n := byteRun(line, 0)
	if n < 3 {
		return ""
	}
	return line[:n]
}

// inlineCodeSpans returns the inline code spans of text: each from a run of
// backticks to the next run of the same length. A run with no partner is
// literal text.
func inlineCodeSpans(text string) []protectedSpan {
	var ss []protectedSpan
	unmatched := map[int]bool{} // run lengths with no later run of that length
	for i := 0; i < len(text); {
		if text[i] != '`' {
			i++
			continue
		}
		n := byteRun(text, i)
		end := -1
		if !unmatched[n] {
			end = closingRun(text, i+n, n)
		}
		if end < 0 {
			unmatched[n] = true
			i += n
			continue
		}
		ss = append(ss, protectedSpan{i, end})
		i = end
	}
	return ss
}

// closingRun returns the end of the first run of exactly n backticks in text
// at or after from, or -1.
func closingRun(text string, from, n int) int {
	for j := from; j < len(text); {
		k := strings.IndexByte(text[j:], '`')
		if k < 0 {
			return -1
		}
		j += k
		m := byteRun(text, j)
		if m == n {
			return j + m
		}
		j += m
	}
	return -1
}

// byteRun returns how many times the byte text[i] repeats from i on.
func byteRun(text string, i int) int {
	n := 1
	for i+n < len(text) && text[i+n] == text[i] {
		n++
	}
	return n
}
