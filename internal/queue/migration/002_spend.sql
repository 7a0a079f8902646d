-- Tokens the extractor spent per day, for the daily budget.
CREATE TABLE spend (
	day    TEXT PRIMARY KEY,                 -- 2006-01-02
	tokens INTEGER NOT NULL
);
