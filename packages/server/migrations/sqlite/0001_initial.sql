-- Initial schema (SQLite). Times are Unix epoch milliseconds; booleans are 0/1;
-- JSON documents are stored as text, exactly as they will be served.

CREATE TABLE workspaces (
  id          TEXT PRIMARY KEY,
  slug        TEXT NOT NULL UNIQUE,
  created_at  INTEGER NOT NULL
);

CREATE TABLE projects (
  id            TEXT PRIMARY KEY,
  workspace_id  TEXT NOT NULL REFERENCES workspaces (id),
  name          TEXT NOT NULL,
  framework     TEXT NOT NULL,
  environments  TEXT NOT NULL,
  pinpoints     TEXT NOT NULL,
  auto          TEXT NOT NULL,
  created_at    INTEGER NOT NULL,
  updated_at    INTEGER NOT NULL,
  UNIQUE (workspace_id, name)
);

-- A hostname belongs to one project and one environment across the whole service.
CREATE TABLE domains (
  hostname     TEXT PRIMARY KEY,
  project_id   TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  environment  TEXT NOT NULL,
  position     INTEGER NOT NULL,
  created_at   INTEGER NOT NULL
);
CREATE INDEX domains_project ON domains (project_id, environment, position);

CREATE TABLE forms (
  id                         TEXT PRIMARY KEY,
  project_id                 TEXT NOT NULL REFERENCES projects (id),
  slug                       TEXT NOT NULL,
  name                       TEXT,
  endpoint_id                TEXT NOT NULL UNIQUE,
  rate_limit_max             INTEGER,
  rate_limit_window_seconds  INTEGER,
  position                   INTEGER NOT NULL DEFAULT 0,
  created_at                 INTEGER NOT NULL,
  updated_at                 INTEGER NOT NULL,
  UNIQUE (project_id, slug)
);

CREATE TABLE submissions (
  id               TEXT PRIMARY KEY,
  form_id          TEXT NOT NULL REFERENCES forms (id),
  state            TEXT NOT NULL CHECK (state IN ('inbox', 'spam')),
  fields           TEXT NOT NULL,
  files            TEXT NOT NULL,
  client_ip        TEXT,
  user_agent       TEXT,
  idempotency_key  TEXT,
  created_at       INTEGER NOT NULL
);
CREATE INDEX submissions_listing ON submissions (form_id, state, id);

-- The idempotency window: one row per (form, key); a row older than 24 h may be replaced.
CREATE TABLE idempotency_keys (
  form_id        TEXT NOT NULL REFERENCES forms (id),
  key            TEXT NOT NULL,
  submission_id  TEXT NOT NULL,
  created_at     INTEGER NOT NULL,
  PRIMARY KEY (form_id, key)
);
CREATE INDEX idempotency_keys_age ON idempotency_keys (created_at);

-- The transactional outbox: written in the same transaction as what caused the event.
CREATE TABLE events (
  id             TEXT PRIMARY KEY,
  project_id     TEXT NOT NULL REFERENCES projects (id),
  type           TEXT NOT NULL,
  payload        TEXT NOT NULL,
  created_at     INTEGER NOT NULL,
  dispatched_at  INTEGER
);
CREATE INDEX events_undispatched ON events (id) WHERE dispatched_at IS NULL;

CREATE TABLE webhooks (
  id                          TEXT PRIMARY KEY,
  project_id                  TEXT NOT NULL REFERENCES projects (id),
  url                         TEXT NOT NULL,
  events                      TEXT NOT NULL,
  description                 TEXT,
  secret                      TEXT NOT NULL,
  previous_secret             TEXT,
  previous_secret_expires_at  INTEGER,
  enabled                     INTEGER NOT NULL DEFAULT 1,
  disabled_reason             TEXT,
  created_at                  INTEGER NOT NULL,
  updated_at                  INTEGER NOT NULL
);
CREATE INDEX webhooks_project ON webhooks (project_id);

CREATE TABLE deliveries (
  id                TEXT PRIMARY KEY,
  event_id          TEXT NOT NULL REFERENCES events (id),
  webhook_id        TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  status            TEXT NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts          INTEGER NOT NULL DEFAULT 0,
  next_attempt_at   INTEGER NOT NULL,
  lease_owner       TEXT,
  lease_expires_at  INTEGER,
  last_status_code  INTEGER,
  last_error        TEXT,
  created_at        INTEGER NOT NULL,
  updated_at        INTEGER NOT NULL,
  completed_at      INTEGER,
  UNIQUE (event_id, webhook_id)
);
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX deliveries_webhook ON deliveries (webhook_id, id);

CREATE TABLE delivery_attempts (
  id             TEXT PRIMARY KEY,
  delivery_id    TEXT NOT NULL REFERENCES deliveries (id) ON DELETE CASCADE,
  attempt        INTEGER NOT NULL,
  started_at     INTEGER NOT NULL,
  duration_ms    INTEGER NOT NULL,
  status_code    INTEGER,
  error          TEXT,
  response_body  TEXT,
  UNIQUE (delivery_id, attempt)
);

CREATE TABLE tokens (
  id            TEXT PRIMARY KEY,
  name          TEXT NOT NULL,
  token_hash    TEXT NOT NULL UNIQUE,
  workspace_id  TEXT REFERENCES workspaces (id),
  created_at    INTEGER NOT NULL,
  last_used_at  INTEGER,
  revoked_at    INTEGER
);

-- Write-behind snapshot of in-memory rate-limit counters, so limits survive a restart.
CREATE TABLE rate_limits (
  key         TEXT PRIMARY KEY,
  points      INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL
);
