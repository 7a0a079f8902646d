-- index.db schema version 11, the last to hold the history (recall_stats,
-- injections, verify_state) in index.db: TestOpenMovesHistory builds an
-- old index.db from it. Never edit: it is what old builds wrote.
-- index.db schema. Bump SchemaVersion in db.go on any change: a file with
-- another version is rebuilt from the vaults.

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

-- How often each memory was recalled. Keyed by name, not row, so the
-- counts survive edits of the file.
CREATE TABLE recall_stats (
	source TEXT    NOT NULL,
	name   TEXT    NOT NULL,
	times  INTEGER NOT NULL,
	last   TEXT    NOT NULL,                 -- RFC 3339 UTC
	PRIMARY KEY (source, name)
) WITHOUT ROWID;

-- Which memories were injected into which agent session, so that a
-- session never gets the same memory twice.
CREATE TABLE injections (
	session TEXT NOT NULL,
	source  TEXT NOT NULL,
	name    TEXT NOT NULL,
	at      TEXT NOT NULL,                   -- RFC 3339 UTC
	PRIMARY KEY (session, source, name)
) WITHOUT ROWID;

-- For each source, the name, row, size and mtime of every file, packed in
-- one blob: a no-change sync reads this one row instead of a row per file.
-- Rewritten from memories by every sync that writes.
CREATE TABLE manifests (
	source TEXT PRIMARY KEY,
	data   BLOB NOT NULL
) WITHOUT ROWID;

-- The staleness check's caches (see staleness.go): file hashes by size
-- and mtime, identifier lookups by commit, and the last verdict of each
-- memory with the time it entered that state.
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
CREATE TABLE verify_state (
	source  TEXT NOT NULL,
	name    TEXT NOT NULL,
	state   TEXT NOT NULL,
	reasons TEXT NOT NULL,              -- newline-separated
	since   TEXT NOT NULL,              -- RFC 3339 UTC: when it entered this state
	checked TEXT NOT NULL,              -- RFC 3339 UTC: when it was last verified
	PRIMARY KEY (source, name)
) WITHOUT ROWID;
CREATE INDEX verify_state_suspect ON verify_state (source, name) WHERE state = 'suspect';
