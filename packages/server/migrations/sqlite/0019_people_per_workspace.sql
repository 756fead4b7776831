-- People per workspace (docs/members.md, issue 37): a member's name belongs to their
-- membership, set by the workspace that invited them or by them; an invite link the inviter
-- has seen (`shown`) proves nothing about the address, so the session it starts is limited
-- to the inviting workspace (`person_sessions.workspace_id`); audit entries name what they
-- changed and how (docs/privacy.md).

ALTER TABLE members ADD COLUMN name TEXT;
UPDATE members SET name = (SELECT people.name FROM people WHERE people.id = members.person_id);
ALTER TABLE people DROP COLUMN name;

-- Invite links made before this were shown to whoever invited (and emailed, the same link).
ALTER TABLE person_links ADD COLUMN shown INTEGER NOT NULL DEFAULT 0;
UPDATE person_links SET shown = 1 WHERE purpose = 'invite';

ALTER TABLE person_sessions ADD COLUMN workspace_id TEXT REFERENCES workspaces (id) ON DELETE CASCADE;
CREATE INDEX person_sessions_workspace ON person_sessions (workspace_id);

ALTER TABLE audit_log ADD COLUMN object_name TEXT;
ALTER TABLE audit_log ADD COLUMN change_from TEXT;
ALTER TABLE audit_log ADD COLUMN change_to TEXT;
