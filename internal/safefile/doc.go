// Package safefile reads a file that anyone may have put in mnemo's way (a
// repository ships the vault, MEMORY.md and settings files; an agent names
// the transcript) without hanging or exhausting memory: it opens without
// blocking, so a FIFO cannot stall the reader (and the locks it holds),
// refuses anything but a regular file (a device such as /dev/zero, a
// socket, a folder) before reading a byte, and reads at most a limit.
package safefile
