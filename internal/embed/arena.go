package embed

import "sync"

// arenaRows is the most rows an encode takes its buffers from an arena
// for: one text's tokens ([MaxTokens]), which a query never passes. The
// buffers of a batch of documents (tens of MB) come from the heap, so
// that an arena kept for the next query stays small (a query of 10
// tokens takes about 270 KB).
const arenaRows = MaxTokens

// work is what one encode multiplies and allocates with: the workers'
// buffers for multiplying by stored matrices (none for decoded ones), and
// the arena its intermediate rows come from (nil: the heap).
type work struct {
	workers []scratch
	arena   *arena
}

// take returns n zeros for an intermediate result of the encode.
func (wk *work) take(n int) []float32 {
	if wk.arena == nil {
		return make([]float32, n)
	}
	return wk.arena.take(n)
}

// An arena hands out the intermediate buffers of one encode from one
// allocation kept between encodes: the MCP server embeds a query on
// every recall, and the collector ran on nearly every call when each
// layer's rows were allocated anew. An arena is used by one encode at a
// time.
type arena struct {
	buf  []float32
	used int // of buf, handed out since the last reset
	need int // all that was asked since the last reset
}

// take returns n zeros from the arena, or from the heap when the arena is
// full; reset makes it big enough for that next time.
func (a *arena) take(n int) []float32 {
	a.need += n
	if a.used+n > len(a.buf) {
		return make([]float32, n)
	}
	s := a.buf[a.used : a.used+n : a.used+n]
	a.used += n
	clear(s)
	return s
}

// reset makes everything taken free again: nothing taken may be used after.
func (a *arena) reset() {
	if a.need > len(a.buf) {
		a.buf = make([]float32, a.need)
	}
	a.used, a.need = 0, 0
}

// arenaPool keeps the arenas of finished encodes for the next ones.
type arenaPool struct{ p sync.Pool }

func (ap *arenaPool) get() *arena {
	if a, ok := ap.p.Get().(*arena); ok {
		return a
	}
	return &arena{}
}

func (ap *arenaPool) put(a *arena) {
	a.reset()
	ap.p.Put(a)
}
