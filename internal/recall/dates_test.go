package recall

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestPeriods(t *testing.T) {
	day := func(y int, m time.Month, d int) period { return period{y, m, d} }
	tests := []struct {
		text string
		want []period
	}{
		{"What did Gina find on 1 February, 2023?", []period{day(2023, time.February, 1)}},
		{"What painting did she show on October 13, 2023?", []period{day(2023, time.October, 13)}},
		{"the outage of Sept. 3rd 2024", []period{day(2024, time.September, 3)}},
		{"the 21st of March 2025 release", []period{day(2025, time.March, 21)}},
		{"deploys since 2026-05-08", []period{day(2026, time.May, 8)}},
		{"the billing plan as of 2026-03", []period{{2026, time.March, 0}}},
		{"What workout did Maria start in December 2023?", []period{{2023, time.December, 0}}},
		{"How many times has she gone to the beach in 2023?", []period{{2023, 0, 0}}},
		{"When did Melanie go camping in June?", []period{{0, time.June, 0}}},
		{"from May 2023 to 2024", []period{{2023, time.May, 0}, {2024, 0, 0}}},
		// "may" alone is the verb; abbreviations alone are words or names.
		{"May I deploy on Friday?", nil},
		{"ask Jan about the dec file", nil},
		// No real day or month: nothing is read.
		{"31 June, 2023", nil},
		{"version 2023-13", nil},
		{"on 2023-05-00", nil},
		{"0 May, 2023", nil},
		{"from 1990-1995", []period{{1990, 0, 0}, {1995, 0, 0}}},
		{"March of 2023", []period{{2023, time.March, 0}}},
		{"port 8080 and 3000 rows", nil},
		{"", nil},
	}
	for _, tt := range tests {
		if got := periods(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("periods(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

func TestPeriodsAtMost(t *testing.T) {
	text := strings.Repeat("in 2023 and ", 3*maxPeriods)
	if got := len(periods(text)); got != maxPeriods {
		t.Errorf("periods of %d years = %d, want %d", 3*maxPeriods, got, maxPeriods)
	}
	text = strings.Repeat("x", maxDateBytes) + " in June"
	if got := periods(text); len(got) != 0 {
		t.Errorf("periods of a date after %d bytes = %v, want none", maxDateBytes, got)
	}
}

func TestPeriodHolds(t *testing.T) {
	at := func(s string) time.Time {
		t.Helper()
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	slack := 3 * 24 * time.Hour
	tests := []struct {
		p     period
		t     string
		slack time.Duration
		want  bool
	}{
		{period{2023, time.May, 8}, "2023-05-08T23:59:00Z", 0, true},
		{period{2023, time.May, 8}, "2023-05-09T00:00:00Z", 0, false},
		{period{2023, time.May, 8}, "2023-05-11T10:00:00Z", slack, true},
		{period{2023, time.May, 8}, "2023-05-12T10:00:00Z", slack, false},
		{period{2023, time.May, 8}, "2023-05-05T10:00:00Z", slack, true},
		// The day of a time is the day where it was written.
		{period{2023, time.May, 8}, "2023-05-08T23:30:00-05:00", 0, true},
		{period{2023, time.May, 0}, "2023-05-31T12:00:00Z", 0, true},
		{period{2023, time.May, 0}, "2023-06-01T12:00:00Z", 0, false},
		{period{2023, time.February, 0}, "2023-03-03T12:00:00Z", slack, true},
		{period{2023, 0, 0}, "2024-01-02T12:00:00Z", slack, true},
		{period{2023, 0, 0}, "2024-01-05T12:00:00Z", slack, false},
		{period{0, time.June, 0}, "2019-06-15T12:00:00Z", 0, true},
		{period{0, time.December, 0}, "2024-01-02T12:00:00Z", slack, true},
		{period{0, time.January, 0}, "2023-12-30T12:00:00Z", slack, true},
		{period{0, time.June, 0}, "2019-07-15T12:00:00Z", slack, false},
	}
	for _, tt := range tests {
		if got := tt.p.holds(at(tt.t), tt.slack); got != tt.want {
			t.Errorf("%v.holds(%s, %v) = %v, want %v", tt.p, tt.t, tt.slack, got, tt.want)
		}
	}
}

// FuzzPeriods checks that any text gives at most maxPeriods periods, each
// a real day, month or year.
func FuzzPeriods(f *testing.F) {
	for _, s := range []string{"What did Gina find on 1 February, 2023?", "Sept. 3rd 2024", "2026-05-08", "2026-02-30",
		"in June", "May 2023", "0000-00-00", "31 december 9999", "\xff2023", "İstanbul in March 2023"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		ps := periods(text)
		if len(ps) > maxPeriods {
			t.Errorf("periods(%q): %d periods", text, len(ps))
		}
		for _, p := range ps {
			if p.month < 0 || p.month > 12 || p.day != 0 && p.month == 0 || p.year == 0 && p.month == 0 {
				t.Errorf("periods(%q): %#v is no period", text, p)
			}
			if p.day != 0 {
				if d := civil(p.year, p.month, p.day); d.Day() != p.day {
					t.Errorf("periods(%q): %v is no day", text, p)
				}
			}
		}
	})
}
