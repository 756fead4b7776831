-- A form's notification emails go to each address on its own (docs/form-endpoint.md,
-- "Notifications"): a form has one notification target per address, so the index that
-- allowed one target a form allows one target per form and address now.
DROP INDEX webhooks_form_email;
CREATE UNIQUE INDEX webhooks_form_email ON webhooks (form_id, url) WHERE form_id IS NOT NULL;
