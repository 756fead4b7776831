-- A form's settings for people (docs/form-endpoint.md, "Forms without JavaScript" and
-- "Notifications"): where a browser is sent after a post, and who is told by email.
-- notify_emails is a JSON array of addresses, NULL when nobody is.

ALTER TABLE forms ADD COLUMN success_url TEXT;
ALTER TABLE forms ADD COLUMN error_url TEXT;
ALTER TABLE forms ADD COLUMN notify_emails TEXT;

-- Notification emails go through the webhook outbox: each form with addresses has one
-- target of kind 'email' (url `mailto:a@x,b@y`, form_id set), fanned out, retried and
-- logged like any webhook.
ALTER TABLE webhooks ADD COLUMN kind TEXT NOT NULL DEFAULT 'http';
ALTER TABLE webhooks ADD COLUMN form_id TEXT REFERENCES forms (id) ON DELETE CASCADE;
CREATE UNIQUE INDEX webhooks_form_email ON webhooks (form_id) WHERE form_id IS NOT NULL;

-- A form's own retention: its submissions older than this are removed (docs/privacy.md).
ALTER TABLE forms ADD COLUMN retention_seconds INTEGER;

-- Webhook health: when the current run of failed attempts began (null after a success);
-- a webhook failing for the whole failure window is disabled (docs/webhooks.md).
ALTER TABLE webhooks ADD COLUMN failing_since BIGINT;
