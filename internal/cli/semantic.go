package cli

import (
	"context"
	"fmt"

	"github.com/mnemo-dev/mnemo/internal/embed"
	"github.com/mnemo-dev/mnemo/internal/index"
	"github.com/mnemo-dev/mnemo/internal/recall"
)

// A semanticModel embeds memories and queries: package embed's model.
type semanticModel interface {
	index.Embedder
	recall.QueryEmbedder
}

// Semantic returns the sentence encoder, loaded on first use, or nil when
// MNEMO_SEMANTIC is off: then recall ranks by words alone and no
// vectors are computed.
func (f *Factory) Semantic() semanticModel {
	if m := f.lazyModel(); m != nil {
		return m
	}
	return nil // not a nil *embed.Lazy in an interface
}

// lazyModel is Semantic's model, or nil.
func (f *Factory) lazyModel() *embed.Lazy {
	if f.Env.Getenv("MNEMO_SEMANTIC") == "off" {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.model == nil {
		f.model = embed.NewLazy()
	}
	return f.model
}

// residentModel makes the model the Factory hands out keep its matrices
// decoded once loaded (see [embed.LoadResident]): for a long-lived process
// such as the MCP server, which embeds many queries. Hooks do not call
// it: a short process pays less reading the matrices as stored.
func (f *Factory) residentModel() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.model == nil {
		f.model = embed.NewLazyResident()
	}
}

// compare returns consolidation's similarity of meaning (the cosine of
// two texts' vectors), or nil when MNEMO_SEMANTIC is off.
func (f *Factory) compare() func(ctx context.Context, a, b string) (float64, error) {
	m := f.lazyModel()
	if m == nil {
		return nil
	}
	return m.Comparer().Cosine
}

// inlineEmbedMax is how many memories without a vector a command embeds
// itself when it syncs (about a second of work); more wait for `mnemo
// reindex` or the worker.
const inlineEmbedMax = 32

// embedFew embeds the memories of db that lack a vector of the model
// when there are few of them, so that a memory added a moment ago is
// found by meaning. Callers run it after a sync that wrote: counting
// costs a lookup per memory.
func embedFew(ctx context.Context, f *Factory, db *index.DB) error {
	m := f.Semantic()
	if m == nil {
		return nil
	}
	n, err := db.MissingVectors(ctx, m.ModelID())
	if err != nil {
		return err
	}
	if n == 0 || n > inlineEmbedMax {
		return nil
	}
	_, err = db.EmbedMissing(ctx, m, nil)
	return err
}

// embedAll embeds every memory of db that lacks a vector, saying how far
// it got on stderr when that takes a while.
func embedAll(ctx context.Context, f *Factory, db *index.DB) error {
	m := f.Semantic()
	if m == nil {
		return nil
	}
	_, err := db.EmbedMissing(ctx, m, func(done, total int) {
		if total > inlineEmbedMax {
			fmt.Fprintf(f.IO.ErrOut, "\rembedding memories: %d of %d", done, total)
			if done == total {
				fmt.Fprintln(f.IO.ErrOut)
			}
		}
	})
	return err
}
