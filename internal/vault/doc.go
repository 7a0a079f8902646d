// Package vault reads and writes a folder of memory files and its MEMORY.md
// index. Writes are atomic (a temp file beside the target, fsync, rename,
// fsync of the folder) and serialized across processes by [Vault.Lock], so
// hooks, the MCP server and the CLI can write one vault at once. The files
// are the truth; package index only mirrors them. A Vault is safe for
// concurrent use.
//
// Every write goes through one door: [Vault.Create] and [Vault.CreateFree]
// for a new memory (never over another one), [Vault.Update] for a change to
// one (shaped like go-internal's lockedfile.Transform: lock, re-read,
// apply, check, atomic write keeping the file's mode, MEMORY.md), and
// [Vault.Delete]. Each checks the memory as a reader will before a byte is
// written, so nothing is stored that a reader would refuse, and refuses a
// memory holding a secret ([Secrets]: by kind, field and line, never the
// secret). [ScanSecrets] finds the secrets already in a folder.
//
// A file's header (source: manual…) is believed only when something other
// than the file vouches for it: mnemo's own write of those bytes on this
// machine (a list of their digests in the state folder; another clone's
// list on this machine counts for what the person pushed from it), or a
// teammate's commit: git's HEAD holds those bytes, no commit made in this
// clone (its reflogs name them) gave them, and the commit that did names
// another person as its author and committer. A commit made in this clone
// is no one's review (an agent commits as easily as it writes), nor is one
// this person made in another clone and pushed, and a repository into
// which nothing was fetched has no teammate's commit.
// Every other file that names a source is disowned when it is read
// ([memory.Memory.Disown], saying why), and package provenance, the hooks
// and the CLI treat it as written outside mnemo until a person approves it.
//
// The lines of MEMORY.md outside mnemo's block are kept as they are, and
// are notes no one reviewed ([Notes]) until the person reviews them on
// this machine ([Vault.ApproveNotes]): git vouches for none of them.
//
// A MEMORY.md git left conflicted is regenerated keeping both sides'
// lines ([RenderIndex]); whichever process does it notes the resolution in
// the state folder, for the person to be told once ([TakeResolved]).
package vault
