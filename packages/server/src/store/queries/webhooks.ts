import type { WebhookRow } from '../schema.js';
import type { Db } from '../store.js';

export async function findProjectWebhook(db: Db, projectId: string, id: string): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('project_id', '=', projectId).where('id', '=', id).executeTakeFirst();
}

/** The project's webhooks, oldest first. */
export async function listProjectWebhooks(db: Db, projectId: string): Promise<WebhookRow[]> {
  return db.selectFrom('webhooks').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
}

export async function insertWebhook(db: Db, row: WebhookRow): Promise<void> {
  await db.insertInto('webhooks').values(row).execute();
}

/** Deletes the webhook; its deliveries and their attempts go with it (ON DELETE CASCADE). */
export async function deleteWebhook(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

export async function enableWebhook(db: Db, id: string, now: number): Promise<void> {
  // A fresh start: failures before it do not count towards disabling it again.
  await db.updateTable('webhooks').set({ enabled: 1, disabled_reason: null, failing_since: null, updated_at: now }).where('id', '=', id).execute();
}

/**
 * Disables webhooks and fails their pending deliveries. A delivery whose attempt is in
 * flight keeps its lease, so that attempt is still recorded (with its real outcome, never a
 * retry). Failed deliveries can be resent by hand once the webhook is enabled again.
 */
export async function disableWebhooks(db: Db, ids: readonly string[], reason: string, now: number): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('webhooks').set({ enabled: 0, disabled_reason: reason, updated_at: now }).where('id', 'in', ids).execute();
  await db
    .updateTable('deliveries')
    .set({ status: 'failed', last_error: `webhook disabled: ${reason}`, updated_at: now, completed_at: now })
    .where('webhook_id', 'in', ids)
    .where('status', '=', 'pending')
    .execute();
}

/**
 * Makes `sealedSecret` the signing secret. The current one signs alongside it until
 * `previousExpiresAt` (no grace when null); a secret still in its grace period from an
 * earlier rotation is dropped.
 */
export async function rotateWebhookSecret(db: Db, id: string, sealedSecret: string, previousExpiresAt: number | null, now: number): Promise<void> {
  await db
    .updateTable('webhooks')
    .set((eb) => ({
      previous_secret: previousExpiresAt === null ? null : eb.ref('secret'),
      previous_secret_expires_at: previousExpiresAt,
      secret: sealedSecret,
      updated_at: now,
    }))
    .where('id', '=', id)
    .execute();
}

/** Every stored sealed secret, to check at start that this server's key opens them. */
export async function listSealedSecrets(db: Db): Promise<{ id: string; secret: string; previous_secret: string | null }[]> {
  return db.selectFrom('webhooks').select(['id', 'secret', 'previous_secret']).execute();
}

/** A webhook's stored event patterns (a JSON array of strings); nothing for a damaged value. */
export function parseStoredPatterns(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((pattern): pattern is string => typeof pattern === 'string') : [];
  } catch {
    return [];
  }
}

/** The form's notification targets (kind `email`, one per address), oldest first. */
export async function findFormNotificationTargets(db: Db, formId: string): Promise<WebhookRow[]> {
  return db.selectFrom('webhooks').selectAll().where('form_id', '=', formId).orderBy('id').execute();
}

/** The ids of forms whose notification targets include one that emails several addresses at once (stored before one target per address). */
export async function formsWithSharedNotificationTargets(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('webhooks').select('form_id').distinct().where('form_id', 'is not', null).where('kind', '=', 'email').where('url', 'like', 'mailto:%,%').execute();
  return rows.map((row) => row.form_id).filter((id): id is string => id !== null);
}

export async function setWebhookUrl(db: Db, id: string, url: string, now: number): Promise<void> {
  await db.updateTable('webhooks').set({ url, updated_at: now }).where('id', '=', id).execute();
}

/** The project's webhooks that post to a URL (notification email targets are not counted). */
export async function countProjectHttpWebhooks(db: Db, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('webhooks')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('project_id', '=', projectId)
    .where('kind', '=', 'http')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
