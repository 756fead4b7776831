-- Nothing to do: small files held while a submission is read become file_blobs rows with
-- their whole content (docs/server.md, "Files"), a column 0005 already allows. SQLite gains
-- its file_blobs table in its 0009. Kept so both dialects number alike.
SELECT 1;
