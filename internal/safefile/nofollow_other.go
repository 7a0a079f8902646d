//go:build !unix

package safefile

// noFollow is none where the system has no such flag: a symlink is
// followed, and the file it names checked.
const noFollow = 0
