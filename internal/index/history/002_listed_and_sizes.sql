-- What a session was given: a memory whole (its body) or only its index
-- line, so that a session gets a memory once, and a line first may still
-- be followed by the body when a prompt needs it.
ALTER TABLE injections ADD COLUMN kind TEXT NOT NULL DEFAULT 'body'; -- 'body' or 'line'

-- How much context each hook gave each session, in characters, so that
-- mnemo stats reports what a session really costs.
CREATE TABLE deliveries (
	session TEXT    NOT NULL,
	event   TEXT    NOT NULL,                -- the hook: session-start, user-prompt-submit
	at      TEXT    NOT NULL,
	chars   INTEGER NOT NULL
);
CREATE INDEX deliveries_session ON deliveries (session, at);

-- The memories flagged by their last verdict, suspect or changed with
-- every name in place, which every hook reads.
CREATE INDEX verify_state_flagged ON verify_state (source, name) WHERE state IN ('suspect', 'changed');
