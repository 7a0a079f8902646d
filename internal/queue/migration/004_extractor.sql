-- The extractor the job was queued for (--extractor, or $MNEMO_EXTRACTOR
-- where the hook ran); '' for the worker's own.
ALTER TABLE jobs ADD COLUMN extractor TEXT NOT NULL DEFAULT '';
