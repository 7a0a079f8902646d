package memory

// SourceNative is the source a person's review gives a memory file that
// was written outside mnemo (by Claude Code's own auto memory, or by hand).
const SourceNative = "import:native"

// Reviewed reports whether mnemo's gates or a person's review stand behind
// m: its header names a source. Every mnemo writer sets one (manual,
// agent, session:<id>, import:<what>); Claude Code's native auto memory
// writes name, description and type only. A memory without a source is an
// agent's write (or a hand edit) that no one has reviewed: it is recalled
// on demand, but neither listed in MEMORY.md nor injected, until a person
// approves it (which sets [SourceNative]).
func (m *Memory) Reviewed() bool { return m.Source != "" }
