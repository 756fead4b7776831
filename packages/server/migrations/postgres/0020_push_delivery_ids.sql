-- Push deliveries the service has taken, by the id their git host gave them (docs/hosting.md,
-- "Replayed pushes"): a delivery sent again within a day (a host's "redeliver", or a captured
-- request replayed) is answered "ignored: replayed delivery" instead of building its commit
-- once more. Rows older than a day are removed by the maintenance job.
CREATE TABLE push_delivery_ids (
  connection_id TEXT NOT NULL REFERENCES git_connections (id) ON DELETE CASCADE,
  delivery_id TEXT NOT NULL,
  received_at BIGINT NOT NULL,
  PRIMARY KEY (connection_id, delivery_id)
);
CREATE INDEX push_delivery_ids_received ON push_delivery_ids (received_at);
