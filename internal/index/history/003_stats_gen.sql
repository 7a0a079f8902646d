-- A count of the changes to recall_stats, moved on by triggers whatever
-- writes them, so that a process keeping the statistics in memory (the
-- MCP server: index.DB.KeepResident) reads them again only when they
-- changed. It starts at a random count, so that a history.db made anew
-- (a damaged one set aside) never takes up the counts of the one before.
CREATE TABLE stats_gen (
	k INTEGER PRIMARY KEY CHECK (k = 1),
	n INTEGER NOT NULL
);
INSERT INTO stats_gen (k, n) VALUES (1, 1 + abs(random() % 281474976710656));
CREATE TRIGGER recall_stats_inserted AFTER INSERT ON recall_stats
	BEGIN UPDATE stats_gen SET n = n + 1 WHERE k = 1; END;
CREATE TRIGGER recall_stats_updated AFTER UPDATE ON recall_stats
	BEGIN UPDATE stats_gen SET n = n + 1 WHERE k = 1; END;
CREATE TRIGGER recall_stats_deleted AFTER DELETE ON recall_stats
	BEGIN UPDATE stats_gen SET n = n + 1 WHERE k = 1; END;
