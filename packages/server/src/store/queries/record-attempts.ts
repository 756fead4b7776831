import type { Insertable, Updateable } from 'kysely';
import { newId } from '../../lib/ids.js';
import type { DeliveriesTable, DeliveryAttemptsTable } from '../schema.js';
import type { Db } from '../store.js';
import { disableWebhooks } from './webhooks.js';

/** One finished attempt and what it decided for its delivery. */
export interface AttemptRecord {
  readonly deliveryId: string;
  readonly webhookId: string;
  /** The lease the attempt was made under. */
  readonly leaseOwner: string;
  /** Attempts made before this one: this is attempt `attemptsBefore + 1`. */
  readonly attemptsBefore: number;
  readonly startedAt: number;
  readonly durationMs: number;
  readonly statusCode: number | null;
  readonly error: string | null;
  readonly responseBody: string | null;
  /** The headers the attempt's request carried, for the delivery log (null when nothing was sent). */
  readonly requestHeaders: Readonly<Record<string, string>> | null;
  /** The delivery's next state; `pending` with `nextAttemptAt` to retry. */
  readonly status: 'succeeded' | 'pending' | 'failed';
  readonly nextAttemptAt: number | null;
  /** The summary kept on the delivery. */
  readonly lastError: string | null;
  /** Disable the webhook with this reason (410 Gone). */
  readonly disableWebhook: string | null;
}

const rowsPerStatement = 200;

/**
 * Records attempts in the caller's transaction. Each delivery is updated only if it is still
 * leased to the same owner with the same attempt count (the fence): a worker whose lease ran
 * out and was taken over records nothing, so one attempt number is never logged twice. The
 * status is not part of the fence: a delivery failed because its webhook was disabled while
 * the attempt was in flight gets the attempt's real outcome, but never a retry. Returns, per
 * record, whether it was recorded.
 */
export async function recordAttempts(trx: Db, records: readonly AttemptRecord[], now: number): Promise<boolean[]> {
  if (records.length === 0) return [];
  const webhookIds = [...new Set(records.map((record) => record.webhookId))];
  const enabled = new Set(
    (await trx.selectFrom('webhooks').select('id').where('id', 'in', webhookIds).where('enabled', '=', 1).execute()).map((row) => row.id),
  );

  // Attempts that change their deliveries the same way (the common case: first attempts that
  // succeeded with the same status) are recorded with one statement.
  const groups = new Map<string, { changes: Updateable<DeliveriesTable>; leaseOwner: string; attemptsBefore: number; indexes: number[] }>();
  records.forEach((record, index) => {
    const retry = record.status === 'pending' && record.nextAttemptAt !== null && enabled.has(record.webhookId);
    const status = retry ? 'pending' : record.status === 'pending' ? 'failed' : record.status;
    const changes: Updateable<DeliveriesTable> = {
      status,
      attempts: record.attemptsBefore + 1,
      lease_owner: null,
      lease_expires_at: null,
      last_status_code: record.statusCode,
      last_error: status === 'failed' && record.status === 'pending' ? joinReasons(record.lastError, 'webhook disabled') : record.lastError,
      updated_at: now,
      completed_at: status === 'pending' ? null : now,
      ...(retry ? { next_attempt_at: record.nextAttemptAt } : {}),
    };
    const key = JSON.stringify([record.leaseOwner, record.attemptsBefore, changes]);
    const group = groups.get(key) ?? { changes, leaseOwner: record.leaseOwner, attemptsBefore: record.attemptsBefore, indexes: [] };
    group.indexes.push(index);
    groups.set(key, group);
  });

  const recorded = records.map(() => false);
  const attempts: Insertable<DeliveryAttemptsTable>[] = [];
  for (const group of groups.values()) {
    const byId = new Map(group.indexes.map((index) => [records[index]!.deliveryId, index]));
    // One lock order for every writer: by delivery id.
    const ids = [...byId.keys()].sort();
    for (let start = 0; start < ids.length; start += rowsPerStatement) {
      const updated = await trx
        .updateTable('deliveries')
        .set(group.changes)
        .where('id', 'in', ids.slice(start, start + rowsPerStatement))
        .where('lease_owner', '=', group.leaseOwner)
        .where('attempts', '=', group.attemptsBefore)
        .returning('id')
        .execute();
      for (const { id } of updated) {
        const index = byId.get(id)!;
        const record = records[index]!;
        recorded[index] = true;
        attempts.push({
          id: newId('att', record.startedAt),
          delivery_id: record.deliveryId,
          attempt: record.attemptsBefore + 1,
          started_at: record.startedAt,
          duration_ms: record.durationMs,
          status_code: record.statusCode,
          error: record.error,
          response_body: record.responseBody,
          request_headers: record.requestHeaders === null ? null : JSON.stringify(record.requestHeaders),
        });
      }
    }
  }
  for (let start = 0; start < attempts.length; start += rowsPerStatement) {
    await trx.insertInto('delivery_attempts').values(attempts.slice(start, start + rowsPerStatement)).execute();
  }

  await recordHealth(trx, records.filter((_record, index) => recorded[index]));

  const toDisable = new Map<string, string[]>();
  records.forEach((record, index) => {
    if (!recorded[index] || record.disableWebhook === null || !enabled.has(record.webhookId)) return;
    toDisable.set(record.disableWebhook, [...(toDisable.get(record.disableWebhook) ?? []), record.webhookId]);
  });
  for (const [reason, ids] of toDisable) await disableWebhooks(trx, [...new Set(ids)], reason, now);
  return recorded;
}

/**
 * Each webhook's run of failures (docs/webhooks.md): a success ends it, the first failure
 * after a success starts it. Rows are written only when that changes, in id order.
 */
async function recordHealth(trx: Db, records: readonly AttemptRecord[]): Promise<void> {
  const last = new Map<string, { ok: boolean; at: number }>();
  for (const record of records) last.set(record.webhookId, { ok: record.status === 'succeeded', at: record.startedAt });
  const ids = [...last.keys()].sort();
  const recovered = ids.filter((id) => last.get(id)!.ok);
  if (recovered.length > 0) await trx.updateTable('webhooks').set({ failing_since: null }).where('id', 'in', recovered).where('failing_since', 'is not', null).execute();
  for (const id of ids.filter((candidate) => !last.get(candidate)!.ok)) {
    await trx.updateTable('webhooks').set({ failing_since: last.get(id)!.at }).where('id', '=', id).where('failing_since', 'is', null).execute();
  }
}

/** Enabled webhooks failing since before `before`: disabled with `reason`; returns their ids. */
export async function disableLongFailingWebhooks(trx: Db, before: number, reason: string, now: number): Promise<string[]> {
  const ids = (await trx.selectFrom('webhooks').select('id').where('enabled', '=', 1).where('failing_since', '<', before).orderBy('id').execute()).map((row) => row.id);
  if (ids.length > 0) await disableWebhooks(trx, ids, reason, now);
  return ids;
}

function joinReasons(first: string | null, second: string): string {
  return first === null ? second : `${first}; ${second}`;
}
