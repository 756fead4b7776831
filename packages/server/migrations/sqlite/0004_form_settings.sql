-- A form's settings for people (docs/form-endpoint.md, "Forms without JavaScript" and
-- "Notifications"): where a browser is sent after a post, and who is told by email.
-- notify_emails is a JSON array of addresses, NULL when nobody is.

ALTER TABLE forms ADD COLUMN success_url TEXT;
ALTER TABLE forms ADD COLUMN error_url TEXT;
ALTER TABLE forms ADD COLUMN notify_emails TEXT;
