package embed

import (
	"context"
	"sync"
)

// compareCache bounds how many texts' vectors a [Comparer] keeps.
const compareCache = 256

// A Comparer tells how alike two texts are in meaning, embedding each text
// once: consolidation compares one fact with several memories, and the
// same memories with several facts. It is safe for concurrent use.
type Comparer struct {
	l    *Lazy
	mu   sync.Mutex // guards vecs
	vecs map[string][]float32
}

// Comparer returns a [Comparer] embedding with l.
func (l *Lazy) Comparer() *Comparer {
	return &Comparer{l: l, vecs: make(map[string][]float32)}
}

// Cosine returns the cosine similarity of the vectors of a and b, or 0
// when the model cannot read one of them (see [Model.Embed]).
func (c *Comparer) Cosine(ctx context.Context, a, b string) (float64, error) {
	va, err := c.vector(ctx, a)
	if err != nil || va == nil {
		return 0, err
	}
	vb, err := c.vector(ctx, b)
	if err != nil || vb == nil {
		return 0, err
	}
	return Cosine(va, vb), nil
}

func (c *Comparer) vector(ctx context.Context, text string) ([]float32, error) {
	c.mu.Lock()
	v, ok := c.vecs[text]
	c.mu.Unlock()
	if ok {
		return v, nil
	}
	vs, err := c.l.Embed(ctx, []string{text})
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.vecs) >= compareCache {
		clear(c.vecs) // a fresh start is cheaper to reason about than an eviction order
	}
	c.vecs[text] = vs[0]
	return vs[0], nil
}
