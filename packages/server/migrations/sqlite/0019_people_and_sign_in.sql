-- People per workspace, and one sign-in stack (docs/members.md, docs/settings.md).
-- Every session and one-time link live before this keeps working after it: rows move with
-- their hashes, so the cookies and links people hold still match.

-- A member's name belongs to their membership: set by the workspace that invited them, or
-- by them. A person had one name everywhere; each membership starts with it.
ALTER TABLE members ADD COLUMN name TEXT;
UPDATE members SET name = (SELECT people.name FROM people WHERE people.id = members.person_id);
ALTER TABLE people DROP COLUMN name;

-- Audit entries name what they changed and how (docs/privacy.md).
ALTER TABLE audit_log ADD COLUMN object_name TEXT;
ALTER TABLE audit_log ADD COLUMN change_from TEXT;
ALTER TABLE audit_log ADD COLUMN change_to TEXT;

-- One sessions table, whose subject is a token or a person. A person's session may be
-- limited to one workspace (workspace_id): one started by an invite link the inviter saw.
CREATE TABLE sessions_next (
  id_hash       TEXT PRIMARY KEY,
  token_id      TEXT REFERENCES tokens (id) ON DELETE CASCADE,
  person_id     TEXT REFERENCES people (id) ON DELETE CASCADE,
  workspace_id  TEXT REFERENCES workspaces (id) ON DELETE CASCADE,
  created_at    INTEGER NOT NULL,
  last_seen_at  INTEGER NOT NULL,
  expires_at    INTEGER NOT NULL,
  CHECK ((token_id IS NULL) <> (person_id IS NULL))
);
INSERT INTO sessions_next (id_hash, token_id, created_at, last_seen_at, expires_at)
  SELECT id_hash, token_id, created_at, last_seen_at, expires_at FROM sessions;
INSERT INTO sessions_next (id_hash, person_id, created_at, last_seen_at, expires_at)
  SELECT id_hash, person_id, created_at, last_seen_at, expires_at FROM person_sessions;
DROP TABLE sessions;
DROP TABLE person_sessions;
ALTER TABLE sessions_next RENAME TO sessions;
CREATE INDEX sessions_token ON sessions (token_id);
CREATE INDEX sessions_person ON sessions (person_id);
CREATE INDEX sessions_workspace ON sessions (workspace_id);
CREATE INDEX sessions_expiry ON sessions (expires_at);

-- One table of one-time links, by purpose: 'open' (svc open: token_id), 'invite' (member_id
-- names the membership it activates; shown = 1 when the inviter saw it too) and 'email'
-- (sign-in by email: person_id). Invite links made before this were shown to whoever
-- invited (and emailed, the same link), so they count as shown.
CREATE TABLE one_time_links (
  id_hash     TEXT PRIMARY KEY,
  purpose     TEXT NOT NULL,
  token_id    TEXT REFERENCES tokens (id) ON DELETE CASCADE,
  person_id   TEXT REFERENCES people (id) ON DELETE CASCADE,
  member_id   TEXT REFERENCES members (id) ON DELETE CASCADE,
  shown       INTEGER NOT NULL DEFAULT 0,
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL,
  used_at     INTEGER
);
INSERT INTO one_time_links (id_hash, purpose, token_id, created_at, expires_at, used_at)
  SELECT id_hash, 'open', token_id, created_at, expires_at, used_at FROM sign_in_links;
INSERT INTO one_time_links (id_hash, purpose, person_id, member_id, shown, created_at, expires_at, used_at)
  SELECT id_hash, purpose, person_id, member_id, CASE WHEN purpose = 'invite' THEN 1 ELSE 0 END, created_at, expires_at, used_at FROM person_links;
DROP TABLE sign_in_links;
DROP TABLE person_links;
CREATE INDEX one_time_links_token ON one_time_links (token_id);
CREATE INDEX one_time_links_person ON one_time_links (person_id);
CREATE INDEX one_time_links_member ON one_time_links (member_id);
CREATE INDEX one_time_links_expiry ON one_time_links (expires_at);
