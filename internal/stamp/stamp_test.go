package stamp

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestDue: a task is due without a stamp, with one that holds no time,
// a period or more after it, and before it (a clock set back); not within
// the period; and a stamp that cannot be read is an error.
func TestDue(t *testing.T) {
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	tests := []struct {
		name  string
		stamp string // "" for no file
		want  bool
	}{
		{"no stamp", "", true},
		{"garbage", "yesterday\n", true},
		{"an hour ago", now.Add(-time.Hour).Format(time.RFC3339Nano) + "\n", false},
		{"a day ago", now.Add(-day).Format(time.RFC3339Nano) + "\n", true},
		{"in the future", now.Add(time.Hour).Format(time.RFC3339Nano) + "\n", true},
		{"now", now.Format(time.RFC3339Nano), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "task.pruned")
			if tt.stamp != "" {
				if err := os.WriteFile(path, []byte(tt.stamp), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := Due(path, now, day)
			if err != nil || got != tt.want {
				t.Errorf("Due = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
	dir := filepath.Join(t.TempDir(), "a-folder")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Due(dir, now, day); err == nil {
		t.Error("Due(a folder) = nil error, want one")
	}
}

// TestMark: what Mark records, Due reads: not due within the period.
func TestMark(t *testing.T) {
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.FixedZone("CET", 3600))
	path := filepath.Join(t.TempDir(), "task.pruned")
	if err := Mark(path, now); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if want := "2026-12-02T09:00:00Z\n"; err != nil || string(data) != want {
		t.Errorf("stamp = %q, %v; want %q", data, err, want)
	}
	if due, err := Due(path, now.Add(time.Hour), 24*time.Hour); err != nil || due {
		t.Errorf("Due an hour after Mark = %v, %v; want false", due, err)
	}
}
