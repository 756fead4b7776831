-- Emails that carry a one-time link (an invite, an email sign-in; docs/members.md) go through
-- an outbox of their own, written in the transaction that made the link: a mail server that
-- is down delays them, with the webhooks' retry schedule, instead of losing them. The
-- message is sealed with the server's key (it holds a link that signs someone in) and
-- removed as soon as it is sent, given up, or its link has expired.
CREATE TABLE mail_outbox (
  id TEXT PRIMARY KEY,
  purpose TEXT NOT NULL,
  recipient TEXT NOT NULL,
  message_sealed TEXT,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL,
  lease_owner TEXT,
  lease_expires_at BIGINT,
  last_error TEXT,
  expires_at BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  finished_at BIGINT
);
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE status = 'pending';
CREATE INDEX mail_outbox_finished ON mail_outbox (finished_at) WHERE status <> 'pending';
