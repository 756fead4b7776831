-- Small files held while a submission is read are committed with it, in the same
-- transaction (docs/server.md, "Files"): one row per content, the whole content in it.
-- Larger files stay on disk under --data-dir/files.
CREATE TABLE file_blobs (
  sha256      TEXT PRIMARY KEY,
  size        INTEGER NOT NULL,
  content     BLOB NOT NULL,
  created_at  INTEGER NOT NULL
);
