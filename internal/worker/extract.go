package worker

import (
	"context"
	"errors"
	"fmt"

	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/extract"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// FromExtract adapts one of package extract's extractors: candidates become
// facts, and a session skipped on purpose (too short, over budget) becomes
// [ErrSkip].
func FromExtract(x extract.Extractor) Extractor { return adapter{x} }

type adapter struct{ x extract.Extractor }

func (a adapter) Name() string { return a.x.Name() }

func (a adapter) Extract(ctx context.Context, d *transcript.Digest) ([]consolidate.Fact, Usage, error) {
	cands, u, err := a.x.Extract(ctx, d)
	usage := Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens}
	if errors.Is(err, extract.ErrTooShort) || errors.Is(err, extract.ErrBudget) {
		return nil, usage, fmt.Errorf("%w: %v", ErrSkip, err)
	}
	if err != nil {
		return nil, usage, err
	}
	facts := make([]consolidate.Fact, 0, len(cands))
	for _, c := range cands {
		facts = append(facts, consolidate.Fact{
			Name: c.Name, Description: c.Description, Body: c.Fact, Type: c.Type, Category: c.Category,
			Files: c.Files, Confidence: c.Confidence, Why: c.Why, FromToolOutput: c.FromToolOutput,
		})
	}
	return facts, usage, nil
}

// spender is where the day's spend is kept: the queue's database.
type spender interface {
	Spent(ctx context.Context, day string) (int, error)
	AddSpent(ctx context.Context, day string, tokens int) error
}

// Ledger is an [extract.Ledger] over the queue, so the daily budget holds
// across processes.
func Ledger(s spender) extract.Ledger { return ledger{s} }

type ledger struct{ s spender }

func (l ledger) Spent(ctx context.Context, day string) (int, error) { return l.s.Spent(ctx, day) }

func (l ledger) Record(ctx context.Context, day string, u extract.Usage) error {
	return l.s.AddSpent(ctx, day, u.Total())
}
