// Package index owns index.db, the SQLite search index that mirrors one or
// more vaults. It is a cache: the memory files are the truth, and the index
// can be deleted at any time. A file whose schema version differs from this
// build's, or that is not a database at all, is rebuilt with a warning. A
// file damaged below its schema, which opens, is rebuilt when a statement
// meets the damage (see healed in heal.go): under the repair lock, the
// others waiting, built beside it and renamed into place, so that no
// process searches one half filled; the statement is then tried again
// ([sqlitefile.Retried]). So is every exported method's, read or write,
// but [DB.Check] and [DB.VectorModel], which doctor asks, and which only
// look.
//
// A write transaction that spans another process's rebuild (begun on the
// old file before the new one is renamed over it, committed after) is
// lost for what it wrote to index.db, which nobody reads any more: rows
// of memories, which the next sync reads again from the files, and
// vectors, which the worker computes again (they are missing from the new
// file). Nothing that cannot be rebuilt is lost so: the history lives in
// history.db, which a rebuild of index.db leaves alone, and which every
// write of it commits to. (A rebuild fills the new file under the
// history's write lock too, so it waits for a history write in progress.)
// A damaged history.db is set aside, and the history starts anew: what it
// held, and what a transaction spanning that repair wrote to it, stay in
// the file set aside.
//
// [DB.Sync] brings the index up to date with the vault folders: a file whose
// size and modification time match the stored row is not read, so a sync
// that finds nothing changed costs one directory walk. Two FTS5 tables index
// each memory's name, description, body, tags and anchored paths: one with
// the porter stemmer for words, one with the trigram tokenizer for
// substrings: of names, anchored paths, identifiers and text written
// without spaces (CJK). [DB.Search] ranks by BM25 computed from the
// word index's occurrences; user text never reaches MATCH raw: it is cut
// into words, or quoted term by term for the trigram table.
//
// Each memory may have a sentence vector (see [DB.EmbedMissing] and
// [DB.Nearest]): computed outside any transaction by the worker and the
// commands, never by a sync, and lost with the row when the file changes.
// The vectors are of one model, which index.db names ([Embedder]'s
// ModelID): a query of another model uses none of them, and EmbedMissing
// with another model embeds every memory again.
//
// Package index also owns history.db, beside index.db: what mnemo learns
// from use and cannot rebuild from the files (recall statistics, the
// memories injected into each agent session, verification verdicts). It
// is attached to every connection of the index, so that ranking joins it
// with the memories in one query; its rows are keyed by vault and name,
// so they stay valid when the index is rebuilt. Its schema migrates forward
// (history/*.sql, never dropped), and [DB.PruneHistory] keeps it bounded.
//
// What a process reads again and again is kept with the generation it was
// read at, and read again once another process's write moved that on: a
// search's stems and lengths row (by the sync generation), the vectors (by
// theirs), and, for a process that asks for it with [DB.KeepResident] (the
// MCP server), every memory's row and recall statistics (the latter by the
// count of their changes that history.db's triggers keep). What a call
// returns does not depend on what is kept.
//
// Every exported method is one transaction. A DB is safe for concurrent
// use, also by several processes.
package index
