-- Why a job was done without extraction ('' when it was not skipped).
ALTER TABLE jobs ADD COLUMN skipped TEXT NOT NULL DEFAULT '';
