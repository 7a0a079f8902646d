package index

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/mnemo-dev/mnemo/internal/memory"
	"github.com/mnemo-dev/mnemo/internal/safefile"
)

// load reads, hashes and parses the files of todo on every core, and
// calls emit with each in todo's order as soon as it and all before it are
// loaded, with the error that kept it out. A file whose hash matches its
// stored row comes back with rec nil. The stems of the files parsed are
// counted in df. When emit fails, loading stops and load returns that error.
func load(ctx context.Context, todo []change, df map[string]int, emit func(c *change, err error) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, len(todo))
	done := make(chan int, 256)
	var next atomic.Int64
	var wg sync.WaitGroup
	var mu sync.Mutex // guards df
	for range min(runtime.GOMAXPROCS(0), max(len(todo), 1)) {
		wg.Go(func() {
			local := make(map[string]int)
			cache := make(map[string]string)
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= len(todo) {
					break
				}
				errs[i] = loadOne(&todo[i], local, cache)
				done <- i
			}
			mu.Lock()
			for s, n := range local {
				df[s] += n
			}
			mu.Unlock()
		})
	}
	go func() {
		wg.Wait()
		close(done)
	}()
	ready := make([]bool, len(todo))
	emitted := 0
	var failed error
	for i := range done { // read to the end, so that no loader is left blocked
		ready[i] = true
		for failed == nil && emitted < len(todo) && ready[emitted] {
			if err := emit(&todo[emitted], errs[emitted]); err != nil {
				failed = err
				cancel()
			}
			emitted++
		}
	}
	if failed != nil {
		return failed
	}
	if emitted < len(todo) {
		return ctx.Err()
	}
	return nil
}

// asStored reports whether the file of c holds what the index has of it
// (its hash is the stored one).
func asStored(c *change) bool {
	data, err := safefile.Read(c.path, memory.MaxFileSize)
	if err != nil {
		return false
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]) == c.old.hash
}

// loadOne reads one file; it parses and validates it unless its hash is the stored one,
// and then counts its stems in df (cache keeps stems by word).
func loadOne(c *change, df map[string]int, cache map[string]string) error {
	data, err := safefile.Read(c.path, memory.MaxFileSize) // a FIFO, a device or a sparse giant is refused before a read
	if err != nil {
		return err
	}
	c.size = int64(len(data))
	sum := sha256.Sum256(data)
	c.hash = hex.EncodeToString(sum[:])
	if c.old != nil && c.old.hash == c.hash {
		return nil
	}
	m, err := memory.Parse(c.path, data)
	if err != nil {
		return err
	}
	// What lint calls an error (a name that is not the file's, a bad
	// type, control characters) keeps the file out: it is neither recalled
	// nor injected until it is fixed.
	if err := m.Validate(c.path); err != nil {
		return err
	}
	c.rec = newRecord(c.name, c.mtime, m)
	for _, st := range c.rec.stems(c.name, m, cache) {
		df[st]++
	}
	return nil
}
