-- Static hosting (docs/hosting.md): deploys of a project's build output, their files, and
-- which deploy each environment serves.

-- id is a DNS label (dpl-…), so that it can name the deploy's preview address. state:
-- uploading (files arriving), ready (finalised; live where an environment points at it),
-- failed. touched_at is when the deploy last made progress: an upload idle past the
-- deploy timeout is marked failed.
CREATE TABLE deploys (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  environment TEXT NOT NULL,
  state TEXT NOT NULL,
  branch TEXT,
  git_commit TEXT,
  file_count BIGINT NOT NULL,
  total_bytes BIGINT NOT NULL,
  error TEXT,
  created_by TEXT,
  created_at BIGINT NOT NULL,
  touched_at BIGINT NOT NULL,
  finished_at BIGINT
);
CREATE INDEX deploys_project ON deploys (project_id, id);
CREATE INDEX deploys_uploading ON deploys (touched_at) WHERE state = 'uploading';

-- A deploy's files by path (no leading slash, '/'-separated), each a stored file addressed
-- by its SHA-256 (the file store of submissions: deploys share equal contents).
CREATE TABLE deploy_files (
  deploy_id TEXT NOT NULL REFERENCES deploys (id) ON DELETE CASCADE,
  path TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  size BIGINT NOT NULL,
  PRIMARY KEY (deploy_id, path)
);
CREATE INDEX deploy_files_sha256 ON deploy_files (sha256);

-- What each environment of a project serves: switched in one statement (live, promote, rollback).
CREATE TABLE live_deploys (
  project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  environment TEXT NOT NULL,
  deploy_id TEXT NOT NULL REFERENCES deploys (id),
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (project_id, environment)
);
