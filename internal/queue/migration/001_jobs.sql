-- Jobs: one per capture event of a session.
CREATE TABLE jobs (
	id          INTEGER PRIMARY KEY,
	session     TEXT NOT NULL,
	transcript  TEXT NOT NULL,
	cwd         TEXT NOT NULL DEFAULT '',
	event       TEXT NOT NULL,
	created     TEXT NOT NULL,               -- RFC 3339 UTC, as every time here
	state       TEXT NOT NULL DEFAULT 'pending'
	            CHECK (state IN ('pending', 'leased', 'done', 'failed', 'dead')),
	attempts    INTEGER NOT NULL DEFAULT 0,
	lease_until TEXT,                        -- while leased
	next_try    TEXT,                        -- while failed
	last_error  TEXT NOT NULL DEFAULT '',
	start_off   INTEGER,                     -- the byte range processed, once done
	end_off     INTEGER,
	tokens_in   INTEGER NOT NULL DEFAULT 0,
	tokens_out  INTEGER NOT NULL DEFAULT 0,
	facts       INTEGER NOT NULL DEFAULT 0,
	finished    TEXT
);
CREATE INDEX jobs_state ON jobs (state, id);
CREATE INDEX jobs_session ON jobs (session, state);

-- How far each session's transcript has been processed.
CREATE TABLE sessions (
	session    TEXT PRIMARY KEY,
	transcript TEXT NOT NULL,
	done_off   INTEGER NOT NULL DEFAULT 0,   -- the end of the last processed line
	updated    TEXT NOT NULL
);
