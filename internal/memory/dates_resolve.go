package memory

import (
	"fmt"
	"strconv"
	"time"
)

// The resolvers of dateRules: each turns a match into its absolute date,
// with the calendar arithmetic they share.

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
