package memory

import (
	"cmp"
	"slices"
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
