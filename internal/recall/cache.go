package recall

import (
	"container/list"
	"context"
	"sync"
)

// A QueryCache is a [QueryEmbedder] that keeps the vectors of the last
// queries it embedded, keyed by the exact text it was given, so a
// long-lived process (the MCP server) does not embed a query an agent
// repeats, or that a recall asks again for more results, twice. Errors
// are not kept. It is safe for concurrent use.
type QueryCache struct {
	next QueryEmbedder
	size int

	mu    sync.Mutex // guards following
	order *list.List // of *cached, most recently used first
	byKey map[string]*list.Element
}

type cached struct {
	text string
	vec  []float32
}

// NewQueryCache returns a cache of the vectors next gives, holding at most
// size of them (a vector is 2 KB), dropping the least recently used.
func NewQueryCache(next QueryEmbedder, size int) *QueryCache {
	return &QueryCache{next: next, size: max(size, 1), order: list.New(), byKey: make(map[string]*list.Element)}
}

// EmbedQuery returns the vector of text, from the cache when it holds
// one. The vector is shared: callers must not change it.
func (c *QueryCache) EmbedQuery(ctx context.Context, text string) ([]float32, error) {
	c.mu.Lock()
	if el, ok := c.byKey[text]; ok {
		c.order.MoveToFront(el)
		c.mu.Unlock()
		return el.Value.(*cached).vec, nil
	}
	c.mu.Unlock()
	vec, err := c.next.EmbedQuery(ctx, text)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byKey[text]; !ok { // another call may have put it meanwhile
		c.byKey[text] = c.order.PushFront(&cached{text, vec})
		if c.order.Len() > c.size {
			last := c.order.Back()
			c.order.Remove(last)
			delete(c.byKey, last.Value.(*cached).text)
		}
	}
	return vec, nil
}

// ModelID is the model of the embedder the cache keeps the vectors of.
func (c *QueryCache) ModelID() string { return c.next.ModelID() }
