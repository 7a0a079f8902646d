-- history.db: what mnemo learns from use and cannot rebuild from the
-- memory files. Rows are keyed by the memory's vault and name, not by an
-- index row, so they stay valid when index.db is rebuilt and when a file
-- is edited. Every time is RFC 3339 UTC text.

-- How often each memory was recalled, and when last: one row per memory,
-- counted up in place rather than one row per recall.
CREATE TABLE recall_stats (
	source TEXT    NOT NULL,                 -- the vault: "project", "user"
	name   TEXT    NOT NULL,                 -- the file name without .md
	times  INTEGER NOT NULL,
	last   TEXT    NOT NULL,
	PRIMARY KEY (source, name)
) WITHOUT ROWID;

-- Which memories were injected into which agent session, so that a
-- session never gets the same memory twice.
CREATE TABLE injections (
	session TEXT NOT NULL,
	source  TEXT NOT NULL,
	name    TEXT NOT NULL,
	at      TEXT NOT NULL,
	PRIMARY KEY (session, source, name)
) WITHOUT ROWID;

-- The last verdict of each memory, with the time it entered that state:
-- mnemo gc counts how long a memory has been suspect from it.
CREATE TABLE verify_state (
	source  TEXT NOT NULL,
	name    TEXT NOT NULL,
	state   TEXT NOT NULL,
	reasons TEXT NOT NULL,                   -- newline-separated
	since   TEXT NOT NULL,                   -- when it entered this state
	checked TEXT NOT NULL,                   -- when it was last verified
	PRIMARY KEY (source, name)
) WITHOUT ROWID;
CREATE INDEX verify_state_suspect ON verify_state (source, name) WHERE state = 'suspect';
