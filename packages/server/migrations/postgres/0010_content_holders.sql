-- Who holds each stored content (docs/privacy.md, "Files and who holds them"). Contents are
-- stored once per SHA-256 across the whole service; these tables say who gave the service
-- the bytes, so that a content is shared only with those who had it, and removed once no
-- one holds it any more. A request's screenshot is held through requests.screenshot_sha256.

-- The contents a workspace uploaded for its deploys (it had the bytes): the only contents
-- its deploys may use without uploading them again (docs/hosting.md).
CREATE TABLE workspace_contents (
  workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
  sha256 TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (workspace_id, sha256)
);
CREATE INDEX workspace_contents_sha256 ON workspace_contents (sha256);

-- The files of each submission, by content: what erasure and the sweep look up by hash,
-- and (project_id, size) what the project's upload quota adds up.
CREATE TABLE submission_contents (
  submission_id TEXT NOT NULL REFERENCES submissions (id) ON DELETE CASCADE,
  sha256 TEXT NOT NULL,
  project_id TEXT NOT NULL,
  size BIGINT NOT NULL,
  PRIMARY KEY (submission_id, sha256)
);
CREATE INDEX submission_contents_sha256 ON submission_contents (sha256);
CREATE INDEX submission_contents_project ON submission_contents (project_id, size);

INSERT INTO submission_contents (submission_id, sha256, project_id, size)
SELECT DISTINCT ON (submissions.id, file ->> 'sha256') submissions.id, file ->> 'sha256', forms.project_id, (file ->> 'size')::bigint
FROM submissions
JOIN forms ON forms.id = submissions.form_id
CROSS JOIN LATERAL jsonb_array_elements(submissions.files::jsonb) AS file
WHERE submissions.files <> '[]'
ON CONFLICT DO NOTHING;

-- Deploys made before this migration: each workspace holds the contents its deploys list,
-- except contents that another workspace's submissions or requests brought (a deploy could
-- name those by their hash alone); its next deploy uploads such a content again.
INSERT INTO workspace_contents (workspace_id, sha256, created_at)
SELECT projects.workspace_id, deploy_files.sha256, MIN(deploys.created_at)
FROM deploy_files
JOIN deploys ON deploys.id = deploy_files.deploy_id
JOIN projects ON projects.id = deploys.project_id
WHERE NOT EXISTS (
    SELECT 1 FROM submission_contents JOIN projects AS other ON other.id = submission_contents.project_id
    WHERE submission_contents.sha256 = deploy_files.sha256 AND other.workspace_id <> projects.workspace_id)
  AND NOT EXISTS (
    SELECT 1 FROM requests JOIN projects AS other ON other.id = requests.project_id
    WHERE requests.screenshot_sha256 = deploy_files.sha256 AND other.workspace_id <> projects.workspace_id)
GROUP BY projects.workspace_id, deploy_files.sha256;
