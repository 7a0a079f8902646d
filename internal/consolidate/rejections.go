package consolidate

import (
	"errors"
	"io/fs"
	"os"
	"sync"
)

// A rejectionCache keeps the rejections of each file as they were last
// read and parsed: consolidation compares every candidate fact with every
// rejection, and parsing them again for each candidate cost 48 µs a
// rejection (a second per fact at 20,000). A file is read again when its
// size, modification time or identity changed (an append by [Inbox.Reject]
// in this process or another, a pull that rewrote it), and it is looked at
// before it is read: a change while it is read is seen on the next call.
type rejectionCache struct {
	mu    sync.Mutex
	files map[string]rejectionFile
}

type rejectionFile struct {
	info  fs.FileInfo
	facts []rejectedFact
}

// unchanged reports whether a file looked at again, now, is the one read.
func (f rejectionFile) unchanged(now fs.FileInfo) bool {
	return os.SameFile(f.info, now) && f.info.Size() == now.Size() && f.info.ModTime().Equal(now.ModTime())
}

// facts returns the rejections recorded in path (none if there is no
// such file), parsed for comparison.
func (c *rejectionCache) facts(path string) ([]rejectedFact, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		delete(c.files, path)
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if f, ok := c.files[path]; ok && f.unchanged(fi) {
		return f.facts, nil
	}
	rs, err := readJSONL[rejection](path)
	if err != nil {
		return nil, err
	}
	facts := make([]rejectedFact, 0, len(rs))
	for _, r := range rs {
		t := r.Description + "\n" + r.Body
		facts = append(facts, rejectedFact{text: t, st: parseStatement(t)})
	}
	if c.files == nil {
		c.files = make(map[string]rejectionFile)
	}
	c.files[path] = rejectionFile{info: fi, facts: facts}
	return facts, nil
}
