-- The inbound log (docs/hosting.md, "When a push did not deploy"): every push webhook and
-- deploy hook call the service could attach to a project, with its verdict, so a push that
-- did not deploy explains itself in `svc builds list --all`. Never the body, a signature, a
-- secret or a hook's URL: only what the sender said it was (host, event, ref, commit, parsed
-- after the signature was verified; the host and event alone for a refused one), the hook's
-- id and name, and what the service did. Bounded per project when a row is written: the
-- last 200 accepted or ignored, and separately the last 50 refused, so refused calls (which
-- anyone who knows the push URL can send) never push the others out.
CREATE TABLE inbound_deliveries (
  id TEXT PRIMARY KEY,
  project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
  received_at BIGINT NOT NULL,
  source TEXT NOT NULL,
  host TEXT,
  hook_id TEXT,
  hook_name TEXT,
  event TEXT,
  ref TEXT,
  git_commit TEXT,
  environment TEXT,
  verdict TEXT NOT NULL,
  reason TEXT,
  build_id TEXT REFERENCES builds (id) ON DELETE SET NULL
);
-- A project's deliveries newest first (the listing), per verdict class (the bound).
CREATE INDEX inbound_deliveries_project ON inbound_deliveries (project_id, id);
CREATE INDEX inbound_deliveries_refused ON inbound_deliveries (project_id, verdict, id);
