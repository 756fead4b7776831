import type { BackendCapabilities } from '../capabilities.js';
import type { MailOutboxRow } from '../schema.js';
import type { Db } from '../store.js';

/** A message to queue, in the caller's transaction (the one that made its link). */
export interface QueuedMail {
  readonly id: string;
  readonly purpose: string;
  readonly recipient: string;
  readonly messageSealed: string;
  readonly expiresAt: number;
  readonly now: number;
}

export async function queueMail(trx: Db, mail: QueuedMail): Promise<void> {
  await trx
    .insertInto('mail_outbox')
    .values({ id: mail.id, purpose: mail.purpose, recipient: mail.recipient, message_sealed: mail.messageSealed, status: 'pending', next_attempt_at: mail.now, lease_owner: null, lease_expires_at: null, last_error: null, expires_at: mail.expiresAt, created_at: mail.now, finished_at: null })
    .execute();
}

/**
 * Leases up to `limit` messages that are due (pending, their time come, no live lease), in
 * the caller's transaction; on PostgreSQL rows another instance holds are skipped.
 */
export async function claimDueMail(trx: Db, capabilities: BackendCapabilities, claim: { now: number; owner: string; leaseUntil: number; limit: number }): Promise<MailOutboxRow[]> {
  let due = trx
    .selectFrom('mail_outbox')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', claim.now)
    .where((eb) => eb.or([eb('lease_expires_at', 'is', null), eb('lease_expires_at', '<', claim.now)]))
    .orderBy('next_attempt_at')
    .limit(claim.limit);
  if (capabilities.skipLocked) due = due.forUpdate().skipLocked();
  const ids = (await due.execute()).map((row) => row.id);
  if (ids.length === 0) return [];
  return trx.updateTable('mail_outbox').set({ lease_owner: claim.owner, lease_expires_at: claim.leaseUntil }).where('id', 'in', ids).returningAll().execute();
}

/** When the earliest pending message is due, or null when none waits. */
export async function nextMailDue(db: Db): Promise<number | null> {
  const row = await db.selectFrom('mail_outbox').select('next_attempt_at').where('status', '=', 'pending').orderBy('next_attempt_at').limit(1).executeTakeFirst();
  return row?.next_attempt_at ?? null;
}

/** Whether any message waits, read before a claiming transaction is opened. */
export async function hasDueMail(db: Db, now: number): Promise<boolean> {
  return (await db.selectFrom('mail_outbox').select('id').where('status', '=', 'pending').where('next_attempt_at', '<=', now).limit(1).executeTakeFirst()) !== undefined;
}

/**
 * What an attempt came to, fenced on the lease: sent or given up (the message is dropped),
 * or pending again at `retryAt`. False when the lease was lost meanwhile.
 */
export async function recordMailAttempt(db: Db, id: string, owner: string, outcome: { status: 'sent' | 'failed' | 'pending'; error: string | null; retryAt: number | null; now: number }): Promise<boolean> {
  const finished = outcome.status !== 'pending';
  const result = await db
    .updateTable('mail_outbox')
    .set((eb) => ({
      status: outcome.status,
      attempts: eb('attempts', '+', 1),
      last_error: outcome.error,
      lease_owner: null,
      lease_expires_at: null,
      next_attempt_at: outcome.retryAt ?? outcome.now,
      finished_at: finished ? outcome.now : null,
      ...(finished ? { message_sealed: null } : {}),
    }))
    .where('id', '=', id)
    .where('lease_owner', '=', owner)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Forgets messages finished (sent or given up) before `before`: they hold no message any more, only that they were. */
export async function deleteFinishedMail(db: Db, before: number): Promise<void> {
  await db.deleteFrom('mail_outbox').where('status', '<>', 'pending').where('finished_at', '<', before).execute();
}

/** How the messages of one recipient fared, newest first (tests and diagnosis). */
export async function mailTo(db: Db, recipient: string): Promise<MailOutboxRow[]> {
  return db.selectFrom('mail_outbox').selectAll().where('recipient', '=', recipient).orderBy('created_at', 'desc').execute();
}
