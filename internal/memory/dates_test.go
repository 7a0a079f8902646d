package memory

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// datesNow is the time the memories in these tests are written: a Monday.
var datesNow = time.Date(2026, 11, 30, 10, 12, 0, 0, time.UTC)

func TestAbsoluteDates(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		// Days.
		{"today", "Deployed today.", "Deployed 2026-11-30."},
		{"tomorrow", "The freeze starts tomorrow", "The freeze starts 2026-12-01"},
		{"yesterday", "CI broke yesterday", "CI broke 2026-11-29"},
		{"tonight", "migration runs tonight", "migration runs the night of 2026-11-30"},
		{"last night", "the pager went off last night", "the pager went off the night of 2026-11-29"},
		{"capitalized", "Today the API changed", "2026-11-30 the API changed"},
		{"upper case", "DUE TOMORROW", "DUE 2026-12-01"},
		{"possessive", "yesterday's outage", "2026-11-29's outage"},
		{"inside a phrase", "the day after tomorrow", "the day after 2026-12-01"},
		{"several", "today, not tomorrow", "2026-11-30, not 2026-12-01"},
		{"sentence end", "Ship it by tomorrow!", "Ship it by 2026-12-01!"},

		// Calendar units.
		{"this week", "busy this week", "busy the week of 2026-11-30"},
		{"next week", "due next week", "due the week of 2026-12-07"},
		{"last week", "decided last week", "decided the week of 2026-11-23"},
		{"next week at sentence start", "Next week we ship.", "The week of 2026-12-07 we ship."},
		{"next week's", "next week's plan", "the week of 2026-12-07's plan"},
		{"this month", "this month", "2026-11"},
		{"next month", "Billing moves next month.", "Billing moves 2026-12."},
		{"last month", "since last month", "since 2026-10"},
		{"this quarter", "this quarter", "2026-Q4"},
		{"next quarter", "next quarter", "2027-Q1"},
		{"last quarter", "last quarter", "2026-Q3"},
		{"this year", "this year", "2026"},
		{"next year", "Next year", "2027"},
		{"last year's", "last year's numbers", "2025's numbers"},
		{"line break inside", "due next\nmonth", "due 2026-12"},

		// Counts.
		{"in days", "expires in 3 days", "expires on 2026-12-03"},
		{"in one day", "in one day", "on 2026-12-01"},
		{"in weeks", "in 2 weeks", "on 2026-12-14"},
		{"in weeks as a word", "In two weeks", "On 2026-12-14"},
		{"in months", "in 3 months", "in 2027-02"},
		{"in twelve months", "in twelve months", "in 2027-11"},
		{"in a year", "in 1 year", "in 2027"},
		{"days ago", "it broke 3 days ago", "it broke on 2026-11-27"},
		{"weeks ago", "two weeks ago", "on 2026-11-16"},
		{"ago after a preposition", "flaky since 3 days ago", "flaky since 2026-11-27"},
		{"months ago", "moved 2 months ago", "moved in 2026-09"},
		{"years ago", "since 1 year ago", "since 2025"},

		// Weekdays.
		{"this weekday", "this Friday", "Friday 2026-12-04"},
		{"this weekday is today", "this Monday", "Monday 2026-11-30"},
		{"next weekday", "next Friday", "Friday 2026-12-04"},
		{"next weekday is a week away", "next Monday", "Monday 2026-12-07"},
		{"last weekday", "last Friday", "Friday 2026-11-27"},
		{"last weekday is a week back", "last Monday", "Monday 2026-11-23"},
		{"lowercase weekday", "next tuesday", "Tuesday 2026-12-01"},
		{"by weekday", "review by Friday", "review by Friday 2026-12-04"},
		{"on weekday today", "on Monday", "on Monday 2026-11-30"},
		{"until weekday", "frozen until sunday.", "frozen until sunday 2026-12-06."},
		{"till weekday", "till Wednesday", "till Wednesday 2026-12-02"},
		{"weekday of next week", "Friday next week", "Friday 2026-12-11"},
		{"on weekday of next week", "on Friday next week", "on Friday 2026-12-11"},
		{"weekday of last week", "Sunday last week", "Sunday 2026-11-29"},
		{"by next weekday", "by next Friday", "by Friday 2026-12-04"},

		// Quarters.
		{"quarter", "ship in Q3", "ship in 2026-Q3"},
		{"past quarter", "Q1 goals", "2026-Q1 goals"},
		{"quarter of next year", "Q3 next year", "2027-Q3"},
		{"quarter of this year", "Q2 of this year", "2026-Q2"},
		{"quarter of last year", "last year's Q4", "2025-Q4"},
		{"next year's quarter", "next year Q1", "2027-Q1"},

		// Ends of periods.
		{"end of month", "end of month", "end of 2026-11 (2026-11-30)"},
		{"end of the month", "by the end of the month", "by the end of 2026-11 (2026-11-30)"},
		{"end of next month", "end of next month", "end of 2026-12 (2026-12-31)"},
		{"end of last month", "End of last month", "End of 2026-10 (2026-10-31)"},
		{"end of week", "by end of week", "by end of 2026-W49 (Friday 2026-12-04)"},
		{"end of next week", "end of next week", "end of 2026-W50 (Friday 2026-12-11)"},
		{"end of quarter", "end of quarter", "end of 2026-Q4 (2026-12-31)"},
		{"end of year", "end of the year", "end of 2026 (2026-12-31)"},
		{"EOD", "by EOD", "by end of day 2026-11-30"},
		{"EOW", "EOW", "end of 2026-W49 (Friday 2026-12-04)"},
		{"EOM", "EOM", "end of 2026-11 (2026-11-30)"},
		{"EOQ", "EOQ", "end of 2026-Q4 (2026-12-31)"},
		{"EOY", "EOY", "end of 2026 (2026-12-31)"},

		// Markdown: only prose changes.
		{"inline code", "`today` is a flag; today it is on", "`today` is a flag; 2026-11-30 it is on"},
		{"double backtick code", "``a ` today`` today", "``a ` today`` 2026-11-30"},
		{"unclosed backtick", "`today", "`2026-11-30"},
		{"fenced block", "```\nnext week\n```\nnext week", "```\nnext week\n```\nthe week of 2026-12-07"},
		{"tilde fence", "~~~go\ntoday()\n~~~\ntoday", "~~~go\ntoday()\n~~~\n2026-11-30"},
		{"unclosed fence", "today\n```\ntoday", "2026-11-30\n```\ntoday"},
		{"url", "see https://example.com/today and today", "see https://example.com/today and 2026-11-30"},
		{"url with spaces after", "https://x.test/?q=next week", "https://x.test/?q=next week"},
		{"link target", "[the plan](today) today", "[the plan](today) 2026-11-30"},
		{"wiki link", "[[today]] was written today", "[[today]] was written 2026-11-30"},
		{"link text is prose", "[due next month](plan.md)", "[due 2026-12](plan.md)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := AbsoluteDates(tt.in, datesNow); got != tt.want {
				t.Errorf("AbsoluteDates(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if got := AbsoluteDates(tt.want, datesNow); got != tt.want {
				t.Errorf("AbsoluteDates(%q) = %q, want it unchanged", tt.want, got)
			}
		})
	}
}

func TestAbsoluteDatesUnchanged(t *testing.T) {
	tests := []struct {
		name, in string
	}{
		{"plural", "yesterdays are gone"},
		{"longer word", "the todayness of it"},
		{"identifier", "set nextMonth to true"},
		{"snake case", "today_flag and flag_today"},
		{"file name", "see last-week.md and notes/today.md"},
		{"path", "/var/today/x"},
		{"hyphenated", "a today-ish fix"},
		{"month name", "May we ship in March?"},
		{"rolling week", "the next week's plan"},
		{"rolling year", "in the last year we grew"},
		{"rolling month", "over the next month"},
		{"ordinal weekday", "the last Friday of the month"},
		{"recurring weekday", "standup on Mondays"},
		{"bare weekday", "Friday is deploy day"},
		{"weekday with a date", "by Friday 2026-12-04"},
		{"weekday with a date in parentheses", "next Friday (2026-12-04)"},
		{"weekday of next week with a date", "on Friday next week 2026-12-11"},
		{"week with a date", "next week, 2026-12-07"},
		{"weekend", "next weekend"},
		{"quarter with a year after", "Q4 2027"},
		{"quarter of a year", "Q3 of 2025"},
		{"quarter with a year before", "2027 Q1"},
		{"fiscal quarter", "FY27 Q2"},
		{"quarter with a short year", "Q3 '27"},
		{"absolute quarter", "2026-Q3"},
		{"lowercase quarter", "q3 is a query name"},
		{"quarter in a word", "Q3X and XQ3"},
		{"lowercase abbreviation", "eod"},
		{"abbreviation in a word", "EODX"},
		{"a large count", "in 1000 days"},
		{"no count", "in a week"},
		{"end of day", "at the end of the day"},
		{"absolute", "2026-11-30, the week of 2026-11-30, end of 2026-11 (2026-11-30)"},
		{"empty", ""},
		{"long s folds to s in patterns", "thiſ week"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := AbsoluteDates(tt.in, datesNow); got != tt.in {
				t.Errorf("AbsoluteDates(%q) = %q, want it unchanged", tt.in, got)
			}
		})
	}
}

// The replacements themselves must read as absolute: none may hold a word
// that a reader could take as relative.
func TestAbsoluteDatesReplacementsAreAbsolute(t *testing.T) {
	relative := []string{"today", "tomorrow", "yesterday", "tonight", "next", "last", "this", "ago"}
	in := "today tomorrow yesterday tonight; last night; this week; next month; last quarter; " +
		"next year; in 2 days; 3 weeks ago; next Friday; by Friday; Friday next week; Q3 next year; " +
		"end of next week; EOD; EOQ"
	got := AbsoluteDates(in, datesNow)
	for _, w := range strings.FieldsFunc(got, func(r rune) bool { return r == ' ' || r == ';' }) {
		for _, rel := range relative {
			if strings.EqualFold(w, rel) {
				t.Errorf("AbsoluteDates(%q) = %q, still holds %q", in, got, w)
			}
		}
	}
}

func TestAbsoluteDatesOtherDays(t *testing.T) {
	est := time.FixedZone("EST", -5*60*60)
	tests := []struct {
		name     string
		now      time.Time
		in, want string
	}{
		{"month end tomorrow", noonUTC(2027, 1, 31), "tomorrow", "2027-02-01"},
		{"month end next month", noonUTC(2027, 1, 31), "next month", "2027-02"},
		{"month end in one month", noonUTC(2027, 1, 31), "in 1 month", "in 2027-02"},
		{"month end end of next month", noonUTC(2027, 1, 31), "end of next month", "end of 2027-02 (2027-02-28)"},
		{"month end this week", noonUTC(2027, 1, 31), "this week", "the week of 2027-01-25"},
		{"month end next week", noonUTC(2027, 1, 31), "next week", "the week of 2027-02-01"},
		{"year end tomorrow", noonUTC(2026, 12, 31), "tomorrow", "2027-01-01"},
		{"year end next month", noonUTC(2026, 12, 31), "next month", "2027-01"},
		{"year end next quarter", noonUTC(2026, 12, 31), "next quarter", "2027-Q1"},
		{"year end next year", noonUTC(2026, 12, 31), "next year", "2027"},
		{"year end next week", noonUTC(2026, 12, 31), "next week", "the week of 2027-01-04"},
		{"year end end of week", noonUTC(2026, 12, 31), "EOW", "end of 2026-W53 (Friday 2027-01-01)"},
		{"year end in two weeks", noonUTC(2026, 12, 31), "in 2 weeks", "on 2027-01-14"},
		{"year end last quarter", noonUTC(2026, 12, 31), "last quarter", "2026-Q3"},
		{"Friday this Friday", noonUTC(2026, 12, 4), "this Friday", "Friday 2026-12-04"},
		{"Friday next Friday", noonUTC(2026, 12, 4), "next Friday", "Friday 2026-12-11"},
		{"Friday last Friday", noonUTC(2026, 12, 4), "last Friday", "Friday 2026-11-27"},
		{"Friday by Friday", noonUTC(2026, 12, 4), "by Friday", "by Friday 2026-12-04"},
		{"Friday next Monday", noonUTC(2026, 12, 4), "next Monday", "Monday 2026-12-07"},
		{"Friday this Monday", noonUTC(2026, 12, 4), "this Monday", "Monday 2026-12-07"},
		{"Friday Monday next week", noonUTC(2026, 12, 4), "Monday next week", "Monday 2026-12-07"},
		{"Friday end of week", noonUTC(2026, 12, 4), "end of week", "end of 2026-W49 (Friday 2026-12-04)"},
		{"Sunday end of week", noonUTC(2026, 12, 6), "end of week", "end of 2026-W49 (Friday 2026-12-04)"},
		{"Sunday this week", noonUTC(2026, 12, 6), "this week", "the week of 2026-11-30"},
		{"leap day next year", noonUTC(2028, 2, 29), "end of next year", "end of 2029 (2029-12-31)"},
		{"February end of month", noonUTC(2028, 2, 10), "end of month", "end of 2028-02 (2028-02-29)"},
		{"Q1 last quarter", noonUTC(2027, 2, 1), "last quarter", "2026-Q4"},
		{"location decides the day", time.Date(2026, 11, 30, 22, 0, 0, 0, est), "today", "2026-11-30"},
		{"UTC is already tomorrow", time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC).In(est), "today", "2026-11-30"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := AbsoluteDates(tt.in, tt.now); got != tt.want {
				t.Errorf("AbsoluteDates(%q) at %s = %q, want %q", tt.in, tt.now.Format(time.RFC3339), got, tt.want)
			}
		})
	}
}

// noonUTC returns noon of the given day in UTC.
func noonUTC(year int, month time.Month, day int) time.Time {
	return time.Date(year, month, day, 12, 0, 0, 0, time.UTC)
}

func TestHasRelativeDate(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"Authentication lives in internal/auth since 2026-09", false},
		{"Authentication moves to internal/auth next month", true},
		{"ship by Friday", true},
		{"ship by Friday 2026-12-04", false},
		{"`today` is a flag", false},
		{"the last year", false},
		{"Q3", true},
		{"", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := HasRelativeDate(tt.in); got != tt.want {
				t.Errorf("HasRelativeDate(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func FuzzAbsoluteDates(f *testing.F) {
	f.Add("Authentication moves to internal/auth next month; ask Dana by Friday.\n" +
		"Decided last week, in 2 weeks we cut the branch (end of the month at the latest).\n" +
		"```\nnext week\n```\nSee https://example.com/today and [[yesterday]]; `tomorrow` is a flag.\n" +
		"Q3 next year, Q4 2027, last year's numbers, EOD, 3 days ago, the next week's plan.")
	f.Add("by Friday next week, on Monday, this Sunday, last Friday, Friday last week")
	f.Add("end of week end of next week end of the quarter EOW EOM EOQ EOY")
	f.Add("``a ` today`` ~~~\ntoday\n``` today")
	f.Add("today-tomorrow, today/yesterday, Q3/Q4, todaytoday, -next week")
	f.Add("thiſ weeK and the last night")
	f.Fuzz(func(t *testing.T, text string) {
		once := AbsoluteDates(text, datesNow)
		if twice := AbsoluteDates(once, datesNow); twice != once {
			t.Errorf("AbsoluteDates not idempotent:\nin:    %q\nonce:  %q\ntwice: %q", text, once, twice)
		}
		if utf8.ValidString(text) && !utf8.ValidString(once) {
			t.Errorf("AbsoluteDates(%q) = %q, not valid UTF-8", text, once)
		}
		if HasRelativeDate(text) != (once != text) {
			t.Errorf("HasRelativeDate(%q) = %v, but AbsoluteDates gives %q", text, HasRelativeDate(text), once)
		}
	})
}

func ExampleAbsoluteDates() {
	now := time.Date(2026, 11, 30, 10, 12, 0, 0, time.UTC) // a Monday
	fmt.Println(AbsoluteDates("Billing moves next month; ask Dana by Friday.", now))
	fmt.Println(AbsoluteDates("Decided last week: `today()` stays in code, in 2 weeks we cut the branch.", now))
	fmt.Println(AbsoluteDates("Freeze from next Friday to the end of the month, goals for Q1 next year.", now))
	// Output:
	// Billing moves 2026-12; ask Dana by Friday 2026-12-04.
	// Decided the week of 2026-11-23: `today()` stays in code, on 2026-12-14 we cut the branch.
	// Freeze from Friday 2026-12-04 to the end of 2026-11 (2026-11-30), goals for 2027-Q1.
}

func ExampleHasRelativeDate() {
	for _, s := range []string{"Expires next month", "Expires 2026-12", "Set `tomorrow` to false"} {
		fmt.Printf("%s: %v\n", s, HasRelativeDate(s))
	}
	// Output:
	// Expires next month: true
	// Expires 2026-12: false
	// Set `tomorrow` to false: false
}
