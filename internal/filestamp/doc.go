// Package filestamp tells whether a file changed since it was last seen
// without reading it, for the caches that keep what a file held while its
// stat holds: the search index's rows of the memory files (a sync reads
// only files whose stamp moved), a vault's parsed memories, and the
// staleness check's hashes of anchored files.
//
// A file's [Of] mixes its modification time with what the system keeps
// of it that no program sets back (on Linux and macOS: the change time,
// the inode and the device): a rewrite that restores the modification
// time (cp -p, rsync -t, touch -d) moves the change time, and a file put
// in its place has another inode. And what a file held is remembered only
// once the file has been left alone for [Window] ([Settled]), as git does
// with its index: a file rewritten at the same size within one tick of
// its file system's clock keeps its times, so one whose times are that
// recent is read again every time.
package filestamp
