package staleness

import "sync"

// memoEntries bounds a [Memo]: past it, what it holds is forgotten and it
// starts again (a few hundred bytes an entry).
const memoEntries = 8192

// A Memo is [Hashes] in memory, for a process that checks the same
// anchored files again and again (the MCP server, on every recall): a
// file that did not change is then a stat call, not a read and a hash.
// A Memo serves the files of one repository; it is safe for concurrent
// use. The zero Memo is empty and ready.
type Memo struct {
	mu sync.Mutex
	m  map[string]memoHash
}

type memoHash struct {
	size, stamp int64
	hash        string
}

// Hash returns the hash remembered for the file at path, if it was of
// this size and stamp.
func (m *Memo) Hash(path string, size, stamp int64) (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	h, ok := m.m[path]
	if !ok || h.size != size || h.stamp != stamp {
		return "", false
	}
	return h.hash, true
}

// PutHash remembers the hash of the file at path, of this size and stamp.
func (m *Memo) PutHash(path string, size, stamp int64, hash string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.m == nil || len(m.m) >= memoEntries {
		m.m = make(map[string]memoHash)
	}
	m.m[path] = memoHash{size, stamp, hash}
}
