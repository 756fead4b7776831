-- Deploys from git (docs/hosting.md, "Deploys from git"): each project's repository, its
-- deploy hooks, and the builds that turn a push or a hook call into a deploy.

-- One repository per project. id names the push webhook's address (/api/git/{id}). The
-- push secret is sealed (AES-256-GCM, the key of webhook secrets), not hashed: GitHub and
-- Gitea sign with it, so verifying needs it back. The token of a private repository is
-- sealed the same way and only ever handed to git.
CREATE TABLE git_connections (
  project_id TEXT PRIMARY KEY REFERENCES projects (id) ON DELETE CASCADE,
  id TEXT NOT NULL UNIQUE,
  repo_url TEXT NOT NULL,
  token_sealed TEXT,
  push_secret_sealed TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);

-- Deploy hooks: the secret in the hook's URL is kept as its SHA-256 (it has 160 random bits,
-- so a plain hash is enough), looked up by that hash.
CREATE TABLE deploy_hooks (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  environment TEXT NOT NULL,
  secret_hash TEXT NOT NULL UNIQUE,
  created_at BIGINT NOT NULL,
  last_used_at BIGINT
);
CREATE INDEX deploy_hooks_project ON deploy_hooks (project_id, id);

-- Builds: queued -> building -> succeeded | failed | canceled. git_commit is NULL while a
-- hook's build waits (the branch's head is read when it starts). A building build is
-- leased by one instance (lease_owner until lease_expires_at, renewed while it runs); one
-- whose lease ran out was left by a stopped server. log holds the last 1 MiB of output.
CREATE TABLE builds (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  environment TEXT NOT NULL,
  branch TEXT NOT NULL,
  git_commit TEXT,
  trigger TEXT NOT NULL,
  created_by TEXT NOT NULL,
  state TEXT NOT NULL,
  error TEXT,
  log TEXT NOT NULL,
  deploy_id TEXT REFERENCES deploys (id) ON DELETE SET NULL,
  lease_owner TEXT,
  lease_expires_at BIGINT,
  created_at BIGINT NOT NULL,
  started_at BIGINT,
  finished_at BIGINT
);
CREATE INDEX builds_project ON builds (project_id, id);
-- At most one queued and one building build per environment: a newer push replaces the queued one.
CREATE UNIQUE INDEX builds_one_queued ON builds (project_id, environment) WHERE state = 'queued';
CREATE UNIQUE INDEX builds_one_building ON builds (project_id, environment) WHERE state = 'building';
CREATE INDEX builds_queued ON builds (created_at) WHERE state = 'queued';
CREATE INDEX builds_building ON builds (lease_expires_at) WHERE state = 'building';

-- Where a deploy came from, as served: NULL (svc deploy) or {"type":"git","repo","branch","commit","trigger"}.
ALTER TABLE deploys ADD COLUMN source TEXT;
