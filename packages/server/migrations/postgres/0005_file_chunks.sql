-- Files are written and read in chunks (docs/server.md, "Backends"): an upload is spooled
-- to local disk while the request is read, then copied into file_chunks 256 KiB at a time,
-- so no instance holds a whole file in memory. file_blobs keeps one row per file (its size,
-- and for files stored before this migration, the whole content).
ALTER TABLE file_blobs ALTER COLUMN content DROP NOT NULL;

CREATE TABLE file_chunks (
  sha256   TEXT NOT NULL REFERENCES file_blobs (sha256) ON DELETE CASCADE,
  seq      INTEGER NOT NULL,
  content  BYTEA NOT NULL,
  PRIMARY KEY (sha256, seq)
);
