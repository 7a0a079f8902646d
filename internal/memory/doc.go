// Package memory is the unit of mnemo: one fact in one markdown file with a
// small YAML header. It parses, renders and validates memory files, extracts
// [[links]] and makes relative dates absolute. It does no I/O: package vault
// owns the folder the files live in.
//
// A parsed [Memory] remembers the exact bytes it came from, so rendering a
// memory nobody changed gives back the same bytes, and rendering one whose
// fields changed keeps every key mnemo does not own, the order of the keys
// and every byte of the body. Files written by Claude Code's own auto memory
// (just name, description and type, or type nested under metadata: and a
// modified: date) are first-class memories.
package memory
