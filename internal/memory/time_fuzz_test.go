package memory

import (
	"strings"
	"testing"
	"time"
)

// FuzzParseTime reads arbitrary header dates: a date accepted is UTC, and
// written back as mnemo writes dates (RFC 3339) it reads as the same
// instant; a date refused is named in the error.
func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"2026-11-30T10:12:00Z", "2026-11-30", "2026-11-30 10:12:00", "2026-11-30T10:12+02:00",
		"2026-11-30T10:12:00.123456789-07:00", " 2026-02-30 ", "0000-01-01", "9999-12-31T23:59:59Z", "next month",
		"2026-11-30T25:61:61Z", "\x00", "\xff\xfe", "2026-11-30T10:12:00Z\n---", strings.Repeat("2026-", 1000)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := ParseTime(s)
		if err != nil {
			if !strings.Contains(err.Error(), "is not a date") {
				t.Fatalf("ParseTime(%q) error %q does not say what is wrong", s, err)
			}
			return
		}
		if got.Location() != time.UTC {
			t.Fatalf("ParseTime(%q) = %v, not UTC", s, got)
		}
		again, err := ParseTime(got.Format(time.RFC3339Nano))
		if err != nil || !again.Equal(got) {
			t.Fatalf("ParseTime(%q) = %v, which reads back as %v, %v", s, got, again, err)
		}
	})
}
