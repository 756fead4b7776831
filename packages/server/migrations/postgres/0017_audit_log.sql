-- The audit log (docs/privacy.md, "The audit log"): one row per change, written in the
-- transaction of the change. The actor's name is kept as it was when they acted. No
-- submitted field, secret or token is ever written here: objects are named by their ids.
CREATE TABLE audit_log (
  id            TEXT PRIMARY KEY,
  at            BIGINT NOT NULL,
  workspace_id  TEXT REFERENCES workspaces (id) ON DELETE CASCADE,
  project_id    TEXT,
  actor_type    TEXT NOT NULL,
  actor_id      TEXT NOT NULL,
  actor_name    TEXT NOT NULL,
  action        TEXT NOT NULL,
  object_type   TEXT,
  object_id     TEXT,
  ip            TEXT
);
-- A workspace's entries newest first (the listing), and the oldest first (retention).
CREATE INDEX audit_log_workspace ON audit_log (workspace_id, id);
CREATE INDEX audit_log_at ON audit_log (at);
