package consolidate

import (
	"errors"
	"io/fs"
	"os"
	"sync"
)

// A recordCache keeps what a file of records held when it was last read:
// the inbox's records (rejections, sightings, links) are appended to and
// never rewritten by mnemo, and every candidate fact, every draft listed,
// read them whole again (parsing 20,000 rejections for each fact took a
// second). A file is read again when its size, modification time or
// identity changed: an append by this process or another, a pull that
// replaced it. It is looked at before it is read, so a change while it is
// read is seen on the next call. What get returns is shared: read it,
// never change it.
type recordCache[V any] struct {
	mu    sync.Mutex
	files map[string]cachedRecords[V]
}

type cachedRecords[V any] struct {
	info fs.FileInfo
	v    V
}

// unchanged reports whether a file looked at again, now, is the one read.
func (c cachedRecords[V]) unchanged(now fs.FileInfo) bool {
	return os.SameFile(c.info, now) && c.info.Size() == now.Size() && c.info.ModTime().Equal(now.ModTime())
}

// get returns load(path), or what it returned before if path has not
// changed since; the zero V if there is no such file.
func (c *recordCache[V]) get(path string, load func(string) (V, error)) (V, error) {
	var zero V
	c.mu.Lock()
	defer c.mu.Unlock()
	fi, err := os.Lstat(path) // a link is never followed: the load refuses it, and says so
	if errors.Is(err, fs.ErrNotExist) {
		delete(c.files, path)
		return zero, nil
	}
	if err != nil {
		return zero, err
	}
	if f, ok := c.files[path]; ok && f.unchanged(fi) {
		return f.v, nil
	}
	v, err := load(path)
	if err != nil {
		return zero, err
	}
	if c.files == nil {
		c.files = make(map[string]cachedRecords[V])
	}
	c.files[path] = cachedRecords[V]{info: fi, v: v}
	return v, nil
}
