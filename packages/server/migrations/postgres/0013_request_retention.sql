-- Per-project retention of Pinpoints requests (docs/privacy.md): null keeps them until deleted.
ALTER TABLE projects ADD COLUMN request_retention_seconds INTEGER;
