package recall

import (
	"fmt"
	"regexp"
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

// monthPattern matches an English month name or its abbreviation.
const monthPattern = `(january|february|march|april|may|june|july|august|september|october|november|december|` +
	`jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?`

// datePattern finds the dates of a query. Its alternatives go from the
// most precise to the least, and at a place of the text where several
// match, the first wins: "8 May, 2023" is a day, not a month and a year.
// Each group's name starts with what it holds: y(ear), m(onth), d(ay).
var datePattern = regexp.MustCompile(`\b(?:` + strings.Join([]string{
	`(?P<y1>\d{4})-(?P<m1>\d{1,2})-(?P<d1>\d{1,2})`,
	`(?P<y2>\d{4})-(?P<m2>\d{1,2})`,
	`(?P<m3>` + monthPattern + `)\s+(?P<d3>\d{1,2})(?:st|nd|rd|th)?,?\s+(?P<y3>\d{4})`,
	`(?P<d4>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<m4>` + monthPattern + `),?\s+(?P<y4>\d{4})`,
	`(?P<m5>` + monthPattern + `),?\s+(?:of\s+)?(?P<y5>\d{4})`,
	`(?P<y6>(?:19|20)\d\d)`,
	// A month alone, written out: "may" is far more often the verb, and
	// an abbreviation alone is more often a word or a name ("jan").
	`(?P<m7>january|february|march|april|june|july|august|september|october|november|december)`,
}, "|") + `)\b`)

// periods returns the days, months and years text names, at most
// [maxPeriods], in the order they appear.
func periods(text string) []period {
	var out []period
	text = strings.ToLower(text[:min(len(text), maxDateBytes)])
	for _, loc := range datePattern.FindAllStringSubmatchIndex(text, maxPeriods) {
		if p, ok := periodOf(text, loc); ok {
			out = append(out, p)
		}
	}
	return out
}

// periodOf reads the period datePattern matched in text at loc; ok is
// false when it names no real day ("2023-13", "31 June, 2023").
func periodOf(text string, loc []int) (p period, ok bool) {
	month, day := false, false // written, whether or not they are real
	for i, name := range datePattern.SubexpNames() {
		if name == "" || loc[2*i] < 0 {
			continue
		}
		s := text[loc[2*i]:loc[2*i+1]]
		switch name[0] {
		case 'y':
			p.year, _ = strconv.Atoi(s)
		case 'm':
			p.month, month = monthOf(s), true
		case 'd':
			p.day, _ = strconv.Atoi(s)
			day = true
		}
	}
	switch {
	case month && p.month == 0:
		return p, false
	case day && (p.day == 0 || civil(p.year, p.month, p.day).Day() != p.day):
		return p, false
	}
	return p, true
}

// monthOf reads a month as a number (1 to 12) or as a name or its
// abbreviation; 0 when s is neither.
func monthOf(s string) time.Month {
	if n, err := strconv.Atoi(s); err == nil {
		if n < 1 || n > 12 {
			return 0
		}
		return time.Month(n)
	}
	s = strings.TrimSuffix(s, ".")
	for m := time.January; m <= time.December; m++ {
		name := strings.ToLower(m.String())
		if s == name || len(s) >= 3 && strings.HasPrefix(name, s) {
			return m
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
