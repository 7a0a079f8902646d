package staleness

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/memory"
)

// TestChangedMemo: through a Memo, Changed finds a file rewritten in the
// same tick of the clock as it was last hashed (same size, same times):
// a file changed within filestamp.Window is hashed every time.
func TestChangedMemo(t *testing.T) {
	root := t.TempDir()
	p := filepath.Join(root, "a.go")
	now := time.Now()
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, now, now); err != nil {
			t.Fatal(err)
		}
	}
	write("package a // One\n")
	a, err := Anchor(root, root, "", []string{"a.go"})
	if err != nil {
		t.Fatal(err)
	}
	m := memory.New(memory.Header{Name: "a", Description: "A is in a.go", Type: memory.TypeProject, Anchors: a}, "Calls `One`.")
	var memo Memo
	if got := Changed(root, m, &memo); len(got) != 0 {
		t.Fatalf("Changed, unchanged = %q; want none", got)
	}
	write("package a // Two\n")
	if got := Changed(root, m, &memo); len(got) != 1 {
		t.Errorf("Changed after a rewrite in the same tick = %q; want one reason", got)
	}
}
