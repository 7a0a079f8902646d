package bench

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/recall"
)

// TestScaleSmall runs the scale benchmark on a small vault and checks that
// it reports; MNEMO_SCALE_N sets the size, for profiling a larger run with
// go test -cpuprofile. Timings are logged, never asserted.
func TestScaleSmall(t *testing.T) {
	n := 300
	if s := os.Getenv("MNEMO_SCALE_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	r, err := RunScale(context.Background(), ScaleOptions{N: n, Queries: 200, Seed: 1, Dir: t.TempDir(), Config: recall.DefaultConfig()})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", r)
	if r.Edited != max(n/100, 1) || r.P50 <= 0 {
		t.Errorf("RunScale = %+v", r)
	}
}
