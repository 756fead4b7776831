-- Webhook delivery (PostgreSQL).

-- Attempts made before the current retry budget began. A delivery resent by hand gets a
-- fresh budget while its attempt numbers keep counting up: the retries left are
-- schedule length + 1 - (attempts - retry_base).
ALTER TABLE deliveries ADD COLUMN retry_base INTEGER NOT NULL DEFAULT 0;

-- One value encrypted with the key that encrypts webhook signing secrets, written by the
-- first start: a start with another key is refused before it writes or reads any secret.
CREATE TABLE encryption_canary (
  id          INTEGER PRIMARY KEY CHECK (id = 1),
  value       TEXT NOT NULL,
  created_at  BIGINT NOT NULL
);
