-- index.db schema. Bump SchemaVersion in db.go on any change: a file with
-- another version is rebuilt from the vaults (or brought up to this one
-- in place: see upgrades in db.go). What cannot be rebuilt from
-- the files is not here but in history.db (see history/).

-- One row per memory file.
CREATE TABLE memories (
	id            INTEGER PRIMARY KEY,
	source        TEXT    NOT NULL,          -- the vault: "project", "user"
	name          TEXT    NOT NULL,          -- the file name without .md
	size          INTEGER NOT NULL,
	mtime         INTEGER NOT NULL,          -- Unix nanoseconds
	hash          TEXT    NOT NULL,          -- SHA-256 of the content, hex
	ntok          INTEGER NOT NULL,          -- words in the indexed columns, for BM25
	code          TEXT    NOT NULL,          -- name, paths, code-like chunks, text without spaces
	type          TEXT    NOT NULL,
	confidence    REAL    NOT NULL,
	status        TEXT    NOT NULL,
	superseded_by TEXT    NOT NULL,
	created       TEXT    NOT NULL,          -- RFC 3339 UTC, or ''
	updated       TEXT    NOT NULL,          -- RFC 3339 UTC: updated, else created, else mtime
	path          TEXT    NOT NULL,
	description   TEXT    NOT NULL,
	tags          TEXT    NOT NULL,          -- space-separated
	files         TEXT    NOT NULL,          -- anchored paths, newline-separated
	body          TEXT    NOT NULL,
	UNIQUE (source, name)
);
CREATE INDEX memories_name ON memories (name);
-- The active memories in the order DB.Top ranks those never recalled:
-- feedback and user memories apart, then by confidence, newest first.
CREATE INDEX memories_brief ON memories ((type IN ('feedback', 'user')), confidence DESC, updated DESC, name, source)
	WHERE status != 'superseded';

-- The [[links]] in each body, for one hop of link expansion both ways.
CREATE TABLE links (
	memory_id INTEGER NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
	target    TEXT    NOT NULL,
	PRIMARY KEY (memory_id, target)
) WITHOUT ROWID;
CREATE INDEX links_target ON links (target);

-- The anchored files of each memory, for files shared with a query.
CREATE TABLE anchors (
	memory_id INTEGER NOT NULL REFERENCES memories (id) ON DELETE CASCADE,
	path      TEXT    NOT NULL,
	dir       TEXT    NOT NULL,
	PRIMARY KEY (memory_id, path)
) WITHOUT ROWID;
CREATE INDEX anchors_path ON anchors (path);
CREATE INDEX anchors_dir ON anchors (dir);

-- The search tables hold no copy of the text (it is in memories); rows are
-- written and deleted by rowid from Go, not by triggers: a trigger makes
-- each insert a statement transaction, and FTS5 flushes its pending terms
-- to disk at every one of those, which made a cold build 3x slower.
CREATE VIRTUAL TABLE memories_fts USING fts5 (
	name, description, body, tags, files, context,
	content = '', contentless_delete = 1,
	tokenize = 'porter unicode61 remove_diacritics 2'
);
-- The trigram table holds the code column only (see codeText): the name,
-- anchored paths, identifiers and text written without spaces.
CREATE VIRTUAL TABLE memories_tri USING fts5 (
	code,
	content = '', contentless_delete = 1,
	tokenize = 'trigram remove_diacritics 1'
);
-- Pending terms are flushed to a new segment when they pass hashsize
-- bytes (1 MB by default); a cold build of 10,000 memories then spent a
-- third of its time merging small segments.
INSERT INTO memories_fts (memories_fts, rank) VALUES ('hashsize', 33554432);
INSERT INTO memories_tri (memories_tri, rank) VALUES ('hashsize', 33554432);

-- How many memories hold each stemmed word in their own text (see df.go):
-- a search drops the commonest words of a query, which cost the most and
-- say the least.
CREATE TABLE df (
	stem TEXT    PRIMARY KEY,
	n    INTEGER NOT NULL
) WITHOUT ROWID;
-- Every occurrence of each stemmed word (row, column): Search computes
-- BM25 from these in Go, several times faster than FTS5's bm25() under
-- the pure-Go SQLite, which looks up each matching row's sizes.
CREATE VIRTUAL TABLE memories_inst USING fts5vocab (memories_fts, 'instance');

-- What BM25 needs besides the occurrences: the number of memories, their
-- total length, and for each row id three bytes: its length in words
-- (little-endian, at most 65535) and its type (see typeCode). gen counts
-- the syncs that wrote, so that a sync sees whether another wrote meanwhile.
CREATE TABLE lengths (
	k      INTEGER PRIMARY KEY CHECK (k = 1),
	docs   INTEGER NOT NULL,
	tokens INTEGER NOT NULL,
	data   BLOB    NOT NULL,
	gen    INTEGER NOT NULL
);

-- The sentence vector of each memory's text (see vectors.go), for recall
-- by meaning. Written by DB.EmbedMissing (the worker, `mnemo reindex`),
-- never by a sync: a memory edited or removed loses its vector by cascade,
-- and waits for the next EmbedMissing.
CREATE TABLE vectors (
	memory_id INTEGER PRIMARY KEY REFERENCES memories (id) ON DELETE CASCADE,
	data      BLOB    NOT NULL              -- float32 scale, then one int8 per dimension; empty: unreadable text
);
-- The mean of every vector, as the last DB.EmbedMissing that wrote left
-- it (float32 values): a query's similarity to it is its mean similarity
-- to the vault, which recall by meaning measures nearness from.
CREATE TABLE vector_mean (
	k    INTEGER PRIMARY KEY CHECK (k = 1),
	data BLOB    NOT NULL
);
-- Counts the EmbedMissing batches that wrote: with the sync generation in
-- lengths, it tells a process holding the vectors in memory that they changed.
-- model names the model every vector and the mean are of (an
-- Embedder's ModelID): recall uses them only with a query of that model,
-- and EmbedMissing with another drops them and embeds every memory again.
CREATE TABLE vector_gen (
	k     INTEGER PRIMARY KEY CHECK (k = 1),
	gen   INTEGER NOT NULL,
	model TEXT    NOT NULL DEFAULT ''
);

-- For each source, the name, row, size and mtime of every file, packed in
-- one blob: a no-change sync reads this one row instead of a row per file.
-- Rewritten from memories by every sync that writes.
CREATE TABLE manifests (
	source TEXT PRIMARY KEY,
	data   BLOB NOT NULL
) WITHOUT ROWID;

-- The staleness check's caches (see staleness.go): file hashes by size
-- and stamp (column mtime: package staleness's hash of the modification
-- time, change time and identity), and identifier lookups by commit. (The verdicts are history:
-- see history/.)
CREATE TABLE file_hashes (
	path  TEXT    PRIMARY KEY,
	size  INTEGER NOT NULL,
	mtime INTEGER NOT NULL,
	hash  TEXT    NOT NULL
) WITHOUT ROWID;
CREATE TABLE ident_cache (
	ident TEXT    NOT NULL,
	head  TEXT    NOT NULL,
	found INTEGER NOT NULL,
	PRIMARY KEY (ident, head)
) WITHOUT ROWID;
