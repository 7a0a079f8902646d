package edit

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/vault"
)

const original = `---
name: deploy
description: Deploy with make
type: project
review_by: 2027-02-28
---
Run make deploy from the repository root.
`

// TestApply edits the memory file original as a person would, and checks
// what Apply answers and what the file holds afterwards.
func TestApply(t *testing.T) {
	now := time.Date(2026, 11, 30, 10, 12, 0, 0, time.UTC)
	same := func(s string) string { return s }
	tests := []struct {
		name    string
		before  func(string) string // the text the person was shown, from original
		after   func(string) string // what they saved, from original
		wantErr error               // errors.Is; errAny for any error
		want    []string            // in the file afterwards
		notWant []string
	}{
		{"saved with dates made absolute", same,
			func(s string) string { return s + "Check it again next month.\n" }, nil,
			[]string{"updated: 2026-11-30T10:12:00Z", "Check it again 2026-12.", "review_by: 2027-02-28"}, []string{"next month"}},
		{"shown rendered, not as bytes", func(string) string { return renderOf(t, original) },
			func(s string) string { return strings.Replace(s, "make deploy", "make release", 1) }, nil,
			[]string{"Run make release"}, nil},
		{"no change", same, same, vault.ErrNoChange, []string{original}, []string{"updated:"}},
		{"retyped: the new type's review date", same,
			func(s string) string { return strings.Replace(s, "type: project", "type: reference", 1) }, nil,
			[]string{"type: reference", "review_by: 2027-05-29"}, []string{"2027-02-28"}},
		{"retyped to a type that never expires", same,
			func(s string) string { return strings.Replace(s, "type: project", "type: feedback", 1) }, nil,
			[]string{"type: feedback"}, []string{"review_by"}},
		{"retyped with a review date of its own", same,
			func(s string) string {
				return strings.NewReplacer("type: project", "type: reference", "2027-02-28", "2027-01-15").Replace(s)
			}, nil,
			[]string{"type: reference", "review_by: 2027-01-15"}, nil},
		{"an invalid header", same,
			func(s string) string { return strings.Replace(s, "type: project", "type: proj", 1) }, errAny,
			[]string{original}, nil},
		{"a changed name", same,
			func(s string) string { return strings.Replace(s, "name: deploy", "name: release", 1) }, errAny,
			[]string{original}, nil},
		{"a secret", same,
			func(s string) string { return s + "token ghp_" + strings.Repeat("a1B2", 9) + "\n" }, errAny,
			[]string{original}, []string{"ghp_"}},
		{"changed since it was shown", func(s string) string { return s + "An older line.\n" },
			func(s string) string { return s + "Mine.\n" }, ErrChanged,
			[]string{original}, []string{"Mine."}},
		{"shown text that is no memory", func(string) string { return "not a memory file\n" },
			same, ErrChanged, []string{original}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := mustVault(t, original)
			before, after := tt.before(original), tt.after(original)
			_, err := Apply(context.Background(), v, "deploy", []byte(before), []byte(after), now)
			switch {
			case tt.wantErr == errAny && err == nil:
				t.Errorf("Apply(%q) = nil, want an error", tt.name)
			case tt.wantErr != errAny && !errors.Is(err, tt.wantErr):
				t.Errorf("Apply(%q) = %v, want %v", tt.name, err, tt.wantErr)
			}
			got, rerr := os.ReadFile(v.Path("deploy"))
			if rerr != nil {
				t.Fatal(rerr)
			}
			for _, w := range tt.want {
				if !strings.Contains(string(got), w) {
					t.Errorf("deploy.md has no %q:\n%s", w, got)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(string(got), w) {
					t.Errorf("deploy.md has %q:\n%s", w, got)
				}
			}
		})
	}
}

// TestApplyNoSuchMemory: an edit of a memory that is gone says so.
func TestApplyNoSuchMemory(t *testing.T) {
	v := mustVault(t, original)
	after := strings.Replace(original, "deploy", "gone", 1)
	_, err := Apply(context.Background(), v, "gone", []byte(after+"x\n"), []byte(after), time.Now())
	if !errors.Is(err, vault.ErrNotFound) {
		t.Errorf("Apply(gone) = %v, want %v", err, vault.ErrNotFound)
	}
}

// errAny stands for any error in a test case.
var errAny = errors.New("any error")

func mustVault(t *testing.T, deploy string) *vault.Vault {
	t.Helper()
	dir := t.TempDir()
	if _, err := vault.Create(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "deploy.md"), []byte(deploy), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Open(dir, filepath.Join(t.TempDir(), "vault.lock"))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func renderOf(t *testing.T, text string) string {
	t.Helper()
	m, err := memory.Parse("deploy.md", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return string(m.Render())
}

// TestDraft edits a draft as a person would before approving it: the draft
// is settled as Apply settles a memory, and nothing is written.
func TestDraft(t *testing.T) {
	now := time.Date(2026, 11, 30, 10, 12, 0, 0, time.UTC)
	d, err := memory.Parse("deploy.md", []byte(original))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		after   func(string) string
		wantErr bool
		want    []string
		notWant []string
	}{
		{"dates made absolute",
			func(s string) string { return s + "Check it again next month.\n" }, false,
			[]string{"updated: 2026-11-30T10:12:00Z", "Check it again 2026-12.", "review_by: 2027-02-28"}, []string{"next month"}},
		{"a new type without a review date gets its own",
			func(s string) string { return strings.Replace(s, "type: project", "type: feedback", 1) }, false,
			[]string{"type: feedback"}, []string{"review_by:"}},
		{"a review date the edit set is kept",
			func(s string) string {
				return strings.NewReplacer("type: project", "type: reference", "2027-02-28", "2027-06-01").Replace(s)
			}, false,
			[]string{"type: reference", "review_by: 2027-06-01"}, nil},
		{"an invalid header is refused",
			func(s string) string { return strings.Replace(s, "type: project", "type: proj", 1) }, true, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Draft(d.Clone(), []byte(tt.after(original)), now)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Draft() error = %v, want error %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			got := string(m.Render())
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("Draft() = %q, want it to hold %q", got, w)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(got, w) {
					t.Errorf("Draft() = %q, want no %q", got, w)
				}
			}
		})
	}
}
