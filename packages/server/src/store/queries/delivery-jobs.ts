import type { WebhookKind } from '../schema.js';
import type { Db } from '../store.js';

/** Everything needed to send one leased delivery and to record its attempt. */
export interface DeliveryJob {
  readonly deliveryId: string;
  readonly webhookId: string;
  readonly projectId: string;
  /** `http`: POST to `url`; `email`: a notification email to the `mailto:` addresses of `url`. */
  readonly kind: WebhookKind;
  readonly eventId: string;
  readonly eventType: string;
  /** The exact JSON body to send and sign. */
  readonly payload: string;
  readonly url: string;
  readonly sealedSecret: string;
  readonly sealedPreviousSecret: string | null;
  readonly previousSecretExpiresAt: number | null;
  /** Attempts made before this one: the attempt is number `attempts + 1`. */
  readonly attempts: number;
  readonly retryBase: number;
  /** The lease this job was claimed under; recording the attempt is fenced on it. */
  readonly leaseOwner: string;
  readonly leaseExpiresAt: number;
}

const idsPerStatement = 500;

/**
 * Loads leased deliveries with their event and webhook; ids that vanished are left out.
 * Three lookups by primary key rather than one join: with a join, SQLite's planner may start
 * from the webhook and walk every delivery ever made to it (a webhook with a backlog of
 * 20,000 made each load take tens of milliseconds).
 */
export async function loadDeliveryJobs(db: Db, ids: readonly string[]): Promise<DeliveryJob[]> {
  const jobs: DeliveryJob[] = [];
  for (let start = 0; start < ids.length; start += idsPerStatement) {
    const deliveries = await db
      .selectFrom('deliveries')
      .select(['id', 'webhook_id', 'event_id', 'attempts', 'retry_base', 'lease_owner', 'lease_expires_at'])
      .where('id', 'in', ids.slice(start, start + idsPerStatement))
      .execute();
    if (deliveries.length === 0) continue;
    const events = new Map(
      (await db.selectFrom('events').select(['id', 'type', 'payload']).where('id', 'in', [...new Set(deliveries.map((row) => row.event_id))]).execute()).map((row) => [row.id, row]),
    );
    const webhooks = new Map(
      (
        await db
          .selectFrom('webhooks')
          .select(['id', 'url', 'project_id', 'kind', 'secret', 'previous_secret', 'previous_secret_expires_at'])
          .where('id', 'in', [...new Set(deliveries.map((row) => row.webhook_id))])
          .execute()
      ).map((row) => [row.id, row]),
    );
    for (const row of deliveries) {
      const event = events.get(row.event_id);
      const webhook = webhooks.get(row.webhook_id);
      if (row.lease_owner === null || row.lease_expires_at === null || !event || !webhook) continue;
      jobs.push({
        deliveryId: row.id,
        webhookId: row.webhook_id,
        projectId: webhook.project_id,
        kind: webhook.kind,
        eventId: event.id,
        eventType: event.type,
        payload: event.payload,
        url: webhook.url,
        sealedSecret: webhook.secret,
        sealedPreviousSecret: webhook.previous_secret,
        previousSecretExpiresAt: webhook.previous_secret_expires_at,
        attempts: row.attempts,
        retryBase: row.retry_base,
        leaseOwner: row.lease_owner,
        leaseExpiresAt: row.lease_expires_at,
      });
    }
  }
  return jobs;
}
