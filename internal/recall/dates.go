package recall

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Limits of the dates read in a query's text: at most maxPeriods, in
// its first maxDateBytes bytes (a pasted log holds many dates, and none
// is what the question is about; reading 1 MB of digits takes half a
// second).
const (
	maxPeriods   = 8
	maxDateBytes = 2 << 10
)

// A period is a day, a month or a year a query names: "on 8 May, 2023",
// "in May 2023", "2023-05-08", "in 2023", "in June". A zero year is any
// year (a month named alone), a zero month the whole year, a zero day the
// whole month.
type period struct {
	year  int
	month time.Month
	day   int
}

func (p period) String() string {
	switch {
	case p.year == 0:
		return p.month.String()
	case p.month == 0:
		return strconv.Itoa(p.year)
	case p.day == 0:
		return fmt.Sprintf("%s %d", p.month, p.year)
	}
	return fmt.Sprintf("%d %s %d", p.day, p.month, p.year)
}

// span returns the first and last day of p in year y (p's own year when
// it has one), as midnights UTC.
func (p period) span(y int) (first, last time.Time) {
	if p.year != 0 {
		y = p.year
	}
	switch {
	case p.month == 0:
		return civil(y, time.January, 1), civil(y, time.December, 31)
	case p.day == 0:
		first = civil(y, p.month, 1)
		return first, first.AddDate(0, 1, -1)
	}
	first = civil(y, p.month, p.day)
	return first, first
}

// holds reports whether t's day falls in p, widened by slack on each side.
func (p period) holds(t time.Time, slack time.Duration) bool {
	d := civil(t.Year(), t.Month(), t.Day())
	years := []int{p.year}
	if p.year == 0 { // any year: the slack may cross into the next or the last
		years = []int{d.Year() - 1, d.Year(), d.Year() + 1}
	}
	for _, y := range years {
		first, last := p.span(y)
		if !d.Before(first.Add(-slack)) && !d.After(last.Add(slack)) {
			return true
		}
	}
	return false
}

func civil(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }

// A dateToken is a run of ASCII letters and digits in a query's text,
// lower-cased: a number ("8", "2023", "3rd") or a word.
type dateToken struct {
	text       string
	start, end int  // byte offsets in the text
	num        int  // the number's value; -1 for a word
	digits     int  // how many digits the number has
	ordinal    bool // "3rd": a number followed by st, nd, rd or th
}

// dateTokens cuts text (lower-case) into tokens.
func dateTokens(text string) []dateToken {
	var out []dateToken
	for i := 0; i < len(text); {
		if !isAlnum(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isAlnum(text[j]) {
			j++
		}
		t := dateToken{text: text[i:j], start: i, end: j, num: -1}
		k := i
		for k < j && k-i < 5 && text[k] >= '0' && text[k] <= '9' {
			k++
		}
		if suffix := text[k:j]; k > i && k-i < 5 && (suffix == "" || suffix == "st" || suffix == "nd" || suffix == "rd" || suffix == "th") {
			t.num, t.digits, t.ordinal = atoi(text[i:k]), k-i, suffix != ""
		}
		out = append(out, t)
		i = j
	}
	return out
}

func isAlnum(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' }

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// periods returns the days, months and years text names, at most
// [maxPeriods], in the order they appear. At each place, the most
// precise reading wins: "8 May, 2023" is a day, not a month and a year.
func periods(text string) []period {
	text = strings.ToLower(text[:min(len(text), maxDateBytes)])
	toks := dateTokens(text)
	var out []period
	for i := 0; i < len(toks) && len(out) < maxPeriods; {
		p, n := readDate(text, toks[i:])
		if n == 0 {
			i++
			continue
		}
		if p != (period{}) {
			out = append(out, p)
		}
		i += n
	}
	return out
}

// readDate reads the date that starts at toks[0]: the period and how many
// tokens it took, or n 0 when none starts there. A date that names no
// real day or month ("2023-13", "31 June, 2023") takes its tokens and
// gives the zero period.
func readDate(text string, toks []dateToken) (p period, n int) {
	at := func(i int) dateToken {
		if i < len(toks) {
			return toks[i]
		}
		return dateToken{num: -1}
	}
	// joined reports whether toks[i] and toks[i+1] are apart by sep
	// alone; spaced whether only spaces, commas and periods part them.
	joined := func(i int, sep string) bool {
		return i+1 < len(toks) && text[toks[i].end:toks[i+1].start] == sep
	}
	spaced := func(i int) bool {
		if i+1 >= len(toks) {
			return false
		}
		gap := text[toks[i].end:toks[i+1].start]
		return gap != "" && len(gap) <= 3 && strings.Trim(gap, " \t\n,.") == ""
	}
	year := func(t dateToken) bool { return t.digits == 4 && !t.ordinal }
	dayNum := func(t dateToken) bool { return t.num >= 0 && t.digits <= 2 }
	t0 := at(0)
	switch m := monthOf(t0.text); {
	case year(t0) && joined(0, "-") && at(1).num >= 0 && !at(1).ordinal && at(1).digits <= 2:
		if joined(1, "-") && dayNum(at(2)) && !at(2).ordinal {
			return checked(period{t0.num, monthNumber(at(1).num), at(2).num}, true), 3
		}
		return checked(period{t0.num, monthNumber(at(1).num), 0}, false), 2
	case m != 0 && t0.num < 0:
		if spaced(0) && dayNum(at(1)) && spaced(1) && year(at(2)) {
			return checked(period{at(2).num, m, at(1).num}, true), 3
		}
		of := 0
		if spaced(0) && at(1).text == "of" {
			of = 1
		}
		if spaced(of) && year(at(of+1)) {
			return period{at(of + 1).num, m, 0}, of + 2
		}
		// A month alone, written out: "may" is far more often the verb,
		// and an abbreviation alone is more often a word or a name ("jan").
		if t0.text != "may" && t0.text == monthNames[m-1] {
			return period{0, m, 0}, 1
		}
	case dayNum(t0) && spaced(0):
		of := 0
		if at(1).text == "of" && spaced(1) {
			of = 1
		}
		if m := monthOf(at(of + 1).text); m != 0 && at(of+1).num < 0 && spaced(of+1) && year(at(of+2)) {
			return checked(period{at(of + 2).num, m, t0.num}, true), of + 3
		}
	case year(t0) && t0.num >= 1900 && t0.num < 2100:
		return period{t0.num, 0, 0}, 1
	}
	return period{}, 0
}

// monthNumber is n as a month, or 0 when it is none.
func monthNumber(n int) time.Month {
	if n < 1 || n > 12 {
		return 0
	}
	return time.Month(n)
}

// checked returns p, or the zero period when p names no real month or
// day.
func checked(p period, day bool) period {
	if p.month == 0 || day && (p.day == 0 || civil(p.year, p.month, p.day).Day() != p.day) {
		return period{}
	}
	return p
}

// monthNames are the months, lower-case, January first.
var monthNames = [12]string{"january", "february", "march", "april", "may", "june",
	"july", "august", "september", "october", "november", "december"}

// monthOf reads a month's name or its abbreviation (of three letters, or
// "sept"); 0 when s is neither.
func monthOf(s string) time.Month {
	if len(s) < 3 || s[0] < 'a' || s[0] > 'z' {
		return 0
	}
	for i, name := range monthNames {
		if strings.HasPrefix(name, s) && (len(s) == 3 || s == "sept" || s == name) {
			return time.Month(i + 1)
		}
	}
	return 0
}

// dated returns the first of periods that holds one of d's dates (created
// or updated) within slack, and that date; ok is false when none does.
func dated(periods []period, created, updated time.Time, slack time.Duration) (p period, when time.Time, ok bool) {
	for _, p := range periods {
		for _, t := range []time.Time{created, updated} {
			if !t.IsZero() && p.holds(t, slack) {
				return p, t, true
			}
		}
	}
	return period{}, time.Time{}, false
}
