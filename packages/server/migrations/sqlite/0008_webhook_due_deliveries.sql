-- The pending deliveries of one webhook in due order (docs/webhooks.md, "Delivery"): when an
-- attempt ends and its webhook has room again, the worker claims that webhook's next due
-- deliveries through this index instead of walking every pending delivery of every webhook.
CREATE INDEX deliveries_webhook_due ON deliveries (webhook_id, next_attempt_at) WHERE status = 'pending';
