-- The settings area (SQLite): browser sessions and one-time sign-in links (docs/settings.md).
-- Only SHA-256 hashes of session ids and link secrets are stored.

CREATE TABLE sessions (
  id_hash       TEXT PRIMARY KEY,
  token_id      TEXT NOT NULL REFERENCES tokens (id) ON DELETE CASCADE,
  created_at    INTEGER NOT NULL,
  last_seen_at  INTEGER NOT NULL,
  expires_at    INTEGER NOT NULL
);
CREATE INDEX sessions_token ON sessions (token_id);
CREATE INDEX sessions_expiry ON sessions (expires_at);

CREATE TABLE sign_in_links (
  id_hash     TEXT PRIMARY KEY,
  token_id    TEXT NOT NULL REFERENCES tokens (id) ON DELETE CASCADE,
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL,
  used_at     INTEGER
);
CREATE INDEX sign_in_links_expiry ON sign_in_links (expires_at);

-- The headers of each attempt's request, as sent (JSON object), for the delivery log.
ALTER TABLE delivery_attempts ADD COLUMN request_headers TEXT;
