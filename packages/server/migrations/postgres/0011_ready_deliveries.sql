-- Claims walk only the rows they take (docs/webhooks.md, "Delivery"). A webhook's pending
-- deliveries that no worker holds, in due order: the worker leases a webhook's next ones
-- through this index, and looks into it once per webhook to learn which have work due now
-- and when the next retry comes.
CREATE INDEX deliveries_webhook_ready ON deliveries (webhook_id, next_attempt_at) WHERE status = 'pending' AND lease_expires_at IS NULL;
-- Leases in the order they run out: the lapsed ones are made ready again, and the next one
-- to run out sets the worker's timer.
CREATE INDEX deliveries_lease_expiry ON deliveries (lease_expires_at) WHERE status = 'pending' AND lease_expires_at IS NOT NULL;
-- Both replaced by deliveries_webhook_ready. With deliveries_due there, PostgreSQL's planner
-- chose it for a webhook's claims and walked every due delivery of the other webhooks.
DROP INDEX deliveries_webhook_due;
DROP INDEX deliveries_due;
