-- Pinpoints (docs/pinpoints.md): each project's public widget key, the requests visitors
-- send through the widget, and the thread of replies to each.

-- pk_… with 120 random bits; NULL for projects made before this migration until it is first
-- needed (made by the server, which has a cryptographic random source).
ALTER TABLE projects ADD COLUMN widget_key TEXT;
CREATE UNIQUE INDEX projects_widget_key_unique ON projects (widget_key) WHERE widget_key IS NOT NULL;

-- status: open, resolved, or spam (the honeypot caught it; no event, not in the inbox).
-- client_ip is NULL when pinpoints.storeIp is false. The screenshot is a stored file
-- addressed by its SHA-256 (the file store of submissions); screenshot_error says why a
-- request came without one. Only the SHA-256 of the reporter's read token is kept.
CREATE TABLE requests (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  environment TEXT NOT NULL,
  status TEXT NOT NULL,
  comment TEXT NOT NULL,
  url TEXT NOT NULL,
  selector TEXT,
  name TEXT,
  email TEXT,
  viewport TEXT,
  user_agent TEXT,
  client_ip TEXT,
  screenshot_sha256 TEXT,
  screenshot_size INTEGER,
  screenshot_error TEXT,
  read_token_hash TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX requests_project_status ON requests (project_id, status, id);
CREATE INDEX requests_screenshot ON requests (screenshot_sha256) WHERE screenshot_sha256 IS NOT NULL;

-- author is the name of the token that replied (a person, in the settings area or the CLI).
CREATE TABLE request_replies (
  id TEXT PRIMARY KEY,
  request_id TEXT NOT NULL REFERENCES requests (id) ON DELETE CASCADE,
  author TEXT NOT NULL,
  message TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX request_replies_request ON request_replies (request_id, id);
