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

/** Loads leased deliveries with their event and webhook; ids that vanished are left out. */
export async function loadDeliveryJobs(db: Db, ids: readonly string[]): Promise<DeliveryJob[]> {
  const jobs: DeliveryJob[] = [];
  for (let start = 0; start < ids.length; start += idsPerStatement) {
    const rows = await db
      .selectFrom('deliveries')
      .innerJoin('events', 'events.id', 'deliveries.event_id')
      .innerJoin('webhooks', 'webhooks.id', 'deliveries.webhook_id')
      .select([
        'deliveries.id',
        'deliveries.webhook_id',
        'deliveries.attempts',
        'deliveries.retry_base',
        'deliveries.lease_owner',
        'deliveries.lease_expires_at',
        'events.id as event_id',
        'events.type as event_type',
        'events.payload',
        'webhooks.url',
        'webhooks.project_id',
        'webhooks.kind',
        'webhooks.secret',
        'webhooks.previous_secret',
        'webhooks.previous_secret_expires_at',
      ])
      .where('deliveries.id', 'in', ids.slice(start, start + idsPerStatement))
      .execute();
    for (const row of rows) {
      if (row.lease_owner === null || row.lease_expires_at === null) continue;
      jobs.push({
        deliveryId: row.id,
        webhookId: row.webhook_id,
        projectId: row.project_id,
        kind: row.kind,
        eventId: row.event_id,
        eventType: row.event_type,
        payload: row.payload,
        url: row.url,
        sealedSecret: row.secret,
        sealedPreviousSecret: row.previous_secret,
        previousSecretExpiresAt: row.previous_secret_expires_at,
        attempts: row.attempts,
        retryBase: row.retry_base,
        leaseOwner: row.lease_owner,
        leaseExpiresAt: row.lease_expires_at,
      });
    }
  }
  return jobs;
}
