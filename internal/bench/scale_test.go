package bench

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/mnemo-dev/mnemo/internal/recall"
)

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
