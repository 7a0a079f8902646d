package bench

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/recall"
)

// devFile is the LoCoMo development file, beside the repository, or
// where MNEMO_LOCOMO_DEV says (from a worktree elsewhere).
func devFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join("..", "..", "..", "shared", "bench", "locomo-dev.json")
	if p := os.Getenv("MNEMO_LOCOMO_DEV"); p != "" {
		path = p
	}
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no LoCoMo development file: %v", err)
	}
	return path
}

// TestLoCoMoDev runs the benchmark on the development file and logs the
// numbers; the numbers are not asserted (they go to the README). For
// tuning on the development file only, MNEMO_TUNE may hold a JSON object
// of recall.Config fields that override the defaults.
func TestLoCoMoDev(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	convs, err := LoadLoCoMo(devFile(t))
	if err != nil {
		t.Fatal(err)
	}
	cfg := recall.DefaultConfig()
	if s := os.Getenv("MNEMO_TUNE"); s != "" {
		if err := json.Unmarshal([]byte(s), &cfg); err != nil {
			t.Fatal(err)
		}
	}
	r, err := RunLoCoMo(context.Background(), convs, LoCoMoOptions{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(r)
	t.Logf("%s in %v", out, r.Elapsed)
}
