-- Nothing to do: on SQLite files live on disk under --data-dir/files (PostgreSQL's
-- file_chunks, 0005 there, has no counterpart). Kept so both dialects number alike.
SELECT 1;
