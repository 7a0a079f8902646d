// Package atomicfile writes files so that readers see the old content or
// the new, never a torn file, even when the writer is killed mid-write.
package atomicfile
