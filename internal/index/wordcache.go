package index

import "sync"

// A wordCache keeps what word searches read of one generation of the
// index (the count of syncs that wrote it, see [nextGeneration]): the
// lengths row's data and, for each stem searched, its document frequency
// and its occurrences. A sync writes all of them in the transaction that
// moves the generation on, so what was read at a generation holds until
// it changes. A process that searches again and again (the MCP server,
// every recall) then reads a stem from the file once, not every search:
// the occurrences of a query's stems were half a recall's SQL.
//
// It holds at most maxCachedOccurrences occurrences (8 bytes each) and
// starts empty again when a stem would take it past that.
type wordCache struct {
	mu sync.Mutex // guards kept
	kept
}

// kept is what a wordCache holds of one generation.
type kept struct {
	gen     int64  // 0: nothing kept
	lengths []byte // nil: not read at gen
	df      map[string]int
	occ     map[string][]int64 // row << 3 | column code, as occurrencesQuery gives them
	n       int                // occurrences held in occ
}

// maxCachedOccurrences bounds a wordCache: 32 MB of occurrences.
const maxCachedOccurrences = 4 << 20

// at makes c hold generation gen, dropping what it held of another. The
// caller holds c.mu.
func (c *wordCache) at(gen int64) {
	if c.gen != gen {
		c.kept = kept{gen: gen}
	}
}

// lengthsAt returns the lengths data kept for gen, or nil.
func (c *wordCache) lengthsAt(gen int64) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		return nil
	}
	return c.lengths
}

// keepLengths keeps data as the lengths row of gen.
func (c *wordCache) keepLengths(gen int64, data []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at(gen)
	c.lengths = data
}

// docFreqs returns the document frequencies kept for gen of those stems
// it has, and the stems it has not.
func (c *wordCache) docFreqs(gen int64, stems []string) (df map[string]int, missing []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	df = make(map[string]int, len(stems))
	for _, s := range stems {
		if n, ok := c.df[s]; ok && c.gen == gen {
			df[s] = n
		} else {
			missing = append(missing, s)
		}
	}
	return df, missing
}

// keepDocFreqs keeps the document frequencies of stems read at gen; a
// stem that df does not name is held by no memory.
func (c *wordCache) keepDocFreqs(gen int64, stems []string, df map[string]int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at(gen)
	if c.df == nil {
		c.df = make(map[string]int)
	}
	for _, s := range stems {
		c.df[s] = df[s]
	}
}

// occurrences returns the occurrences of stem kept for gen. They are
// shared: callers must not change them.
func (c *wordCache) occurrences(gen int64, stem string) ([]int64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	occ, ok := c.occ[stem]
	return occ, ok && c.gen == gen
}

// keepOccurrences keeps the occurrences of stem read at gen.
func (c *wordCache) keepOccurrences(gen int64, stem string, occ []int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.at(gen)
	if len(occ) > maxCachedOccurrences {
		return
	}
	if c.n+len(occ) > maxCachedOccurrences {
		c.occ, c.n = nil, 0
	}
	if c.occ == nil {
		c.occ = make(map[string][]int64)
	}
	if _, ok := c.occ[stem]; !ok {
		c.occ[stem] = occ
		c.n += len(occ)
	}
}

// drop forgets everything kept: the file at the index's path changed.
func (c *wordCache) drop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.kept = kept{}
}
