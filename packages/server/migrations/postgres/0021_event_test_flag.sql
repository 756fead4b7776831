-- A test event (`svc webhooks test`, the page's **Send test event**) is told by a column, not
-- by its payload's first bytes: the overview's figures leave tests out and their deliveries
-- carry `x-service-test: 1` (docs/webhooks.md, "Testing a webhook"). Events stored before
-- this migration are marked from their payload, whose first key is `test` only for tests.
ALTER TABLE events ADD COLUMN test INTEGER NOT NULL DEFAULT 0;
UPDATE events SET test = 1 WHERE payload LIKE '{"test":true,%';
