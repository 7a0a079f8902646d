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
// approves it (which sets [SourceNative]). A header can be forged (the
// agent writes the file, header and all): a memory whose bytes mnemo
// cannot vouch for is [Memory.Disown]ed, and is not reviewed whatever its
// header says.
func (m *Memory) Reviewed() bool { return m.Source != "" && !m.disowned }

// Disown marks m as a file whose source mnemo cannot vouch for: mnemo did
// not write these bytes and no teammate's commit gave them (package vault
// decides). It is then a native write, as if its header named no source,
// until a person approves it; the header itself is kept as it is. why,
// when not empty, says what else mnemo found, in words for the person
// ("committed in this clone (…), and a commit made here is not a review");
// see [Memory.Disowned].
func (m *Memory) Disown(why string) { m.disowned, m.disownedWhy = true, why }

// Disowned returns what [Memory.Disown] was told beyond the file's being
// written outside mnemo: "" when nothing more, or when m is not disowned.
func (m *Memory) Disowned() string { return m.disownedWhy }

// Approve records a person's review of m, a memory no one had reviewed:
// it gets [SourceNative] and is no longer disowned. Only a person's
// approval calls it ('mnemo approve', the review page); package vault
// vouches for the file written after it.
func (m *Memory) Approve() {
	m.Source = SourceNative
	m.disowned, m.disownedWhy, m.approved = false, "", true
}

// Approved reports whether [Memory.Approve] was called on m.
func (m *Memory) Approved() bool { return m.approved }
