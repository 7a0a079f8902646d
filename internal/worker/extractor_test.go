package worker

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/queue"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// named is an extractor that counts the jobs it was given.
type named struct {
	name string
	n    *int
}

func (x named) Name() string { return x.name }

func (x named) Extract(context.Context, *transcript.Digest) ([]consolidate.Fact, Usage, error) {
	*x.n++
	return nil, Usage{}, nil
}

// TestJobNamesItsExtractor: a job queued for an extractor (ingest
// --extractor, or a hook under another $MNEMO_EXTRACTOR) gets that one, even
// from a worker started with another; a job that names none gets the
// worker's own.
func TestJobNamesItsExtractor(t *testing.T) {
	p := newProject(t)
	ctx := context.Background()
	var own, other, asked int
	pl := p.pipeline(named{name: "heuristic", n: &own})
	pl.ExtractorFor = func(name string) (Extractor, error) {
		asked++
		return named{name: name, n: &other}, nil
	}
	for i, x := range []string{"", "heuristic", "anthropic"} {
		tr := filepath.Join(t.TempDir(), "s.jsonl")
		appendLines(t, tr, line("s", "deploy it", 1), line("s", "and test it", 2))
		if _, err := p.q.Enqueue(ctx, queue.Job{Session: "s" + string(rune('a'+i)), Transcript: tr, Event: "ingest", Extractor: x}); err != nil {
			t.Fatal(err)
		}
	}
	w := &Worker{StateDir: p.state, Queue: p.q, Process: pl.Process, Log: pl.Log, Now: time.Now, Lease: time.Minute, Poll: 20 * time.Millisecond}
	if err := w.Run(ctx); err != nil {
		t.Fatal(err)
	}
	if own != 2 || other != 1 || asked != 1 {
		t.Errorf("the worker's own extractor ran %d times, the job's %d (built %d); want 2, 1, 1", own, other, asked)
	}
}
