package worker

import (
	"context"
	"errors"
	"fmt"

	"github.com/mnemo-dev/mnemo/internal/approval"
	"github.com/mnemo-dev/mnemo/internal/consolidate"
	"github.com/mnemo-dev/mnemo/internal/extract"
	"github.com/mnemo-dev/mnemo/internal/transcript"
)

// FromExtract adapts one of package extract's extractors: candidates become
// facts, and a session skipped on purpose (too short, over budget) becomes
// [ErrSkip]. A session too short for a model still gets the offline pass
// for what the person asked to have remembered ([extract.Heuristic.Remembered]):
// those facts come with the ErrSkip, and the session is read again whole
// by its next job all the same.
func FromExtract(x extract.Extractor) Extractor {
	return adapter{x: x, offline: extract.NewHeuristic(extract.Config{})}
}

type adapter struct {
	x       extract.Extractor
	offline *extract.Heuristic
}

func (a adapter) Name() string { return a.x.Name() }

func (a adapter) Extract(ctx context.Context, d *transcript.Digest) ([]consolidate.Fact, Usage, error) {
	cands, u, err := a.x.Extract(ctx, d)
	usage := Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens}
	if errors.Is(err, extract.ErrTooShort) && a.x.Name() != extract.ProviderHeuristic {
		kept, herr := a.offline.Remembered(ctx, d)
		if herr == nil && len(kept) > 0 {
			return facts(kept), usage, fmt.Errorf("%w: %v; the offline pass kept %d fact(s) the person asked to remember", ErrSkip, err, len(kept))
		}
	}
	if errors.Is(err, extract.ErrTooShort) || errors.Is(err, extract.ErrBudget) {
		return nil, usage, fmt.Errorf("%w: %v", ErrSkip, err)
	}
	if err != nil {
		return nil, usage, err
	}
	return facts(cands), usage, nil
}

// facts turns candidates into facts. What an extractor says of a
// candidate's evidence and relation travels as a claim: a confirmation is
// checked against the session ([confirmed]), a relation by consolidation.
func facts(cands []extract.Candidate) []consolidate.Fact {
	out := make([]consolidate.Fact, 0, len(cands))
	for _, c := range cands {
		out = append(out, consolidate.Fact{
			Name: c.Name, Description: c.Description, Body: c.Fact, Type: c.Type, Category: c.Category,
			Files: c.Files, Confidence: c.Confidence, Why: c.Why, FromToolOutput: c.FromToolOutput,
			Confirmed: c.Evidence == approval.Confirmed,
			Relation:  consolidate.Relation{Kind: c.Relation, Memory: c.Memory, Where: c.Where},
		})
	}
	return out
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
