-- People (docs/members.md): members of workspaces with a role, their one-time links (an
-- invite, or a sign-in by email) and their settings-area sessions. Only SHA-256 hashes of
-- link secrets and session ids are stored.

CREATE TABLE people (
  id          TEXT PRIMARY KEY,
  email       TEXT NOT NULL UNIQUE,
  name        TEXT,
  created_at  INTEGER NOT NULL
);

CREATE TABLE members (
  id            TEXT PRIMARY KEY,
  person_id     TEXT NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  workspace_id  TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  role          TEXT NOT NULL,
  status        TEXT NOT NULL,
  created_at    INTEGER NOT NULL,
  UNIQUE (workspace_id, person_id)
);
CREATE INDEX members_person ON members (person_id);

-- purpose: 'invite' (member_id names the membership it activates) or 'email'.
CREATE TABLE person_links (
  id_hash     TEXT PRIMARY KEY,
  person_id   TEXT NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  member_id   TEXT REFERENCES members (id) ON DELETE CASCADE,
  purpose     TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL,
  used_at     INTEGER
);
CREATE INDEX person_links_person ON person_links (person_id);
CREATE INDEX person_links_member ON person_links (member_id);
CREATE INDEX person_links_expiry ON person_links (expires_at);

CREATE TABLE person_sessions (
  id_hash       TEXT PRIMARY KEY,
  person_id     TEXT NOT NULL REFERENCES people (id) ON DELETE CASCADE,
  created_at    INTEGER NOT NULL,
  last_seen_at  INTEGER NOT NULL,
  expires_at    INTEGER NOT NULL
);
CREATE INDEX person_sessions_person ON person_sessions (person_id);
CREATE INDEX person_sessions_expiry ON person_sessions (expires_at);
