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
  /** A test's delivery (`svc webhooks test`): sent with `x-service-test: 1`. */
  readonly test: boolean;
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

/** The columns of a webhook that sending needs. */
export const sendableWebhookColumns = ['id', 'url', 'project_id', 'kind', 'secret', 'previous_secret', 'previous_secret_expires_at'] as const;

export interface SendableWebhook {
  readonly id: string;
  readonly url: string;
  readonly project_id: string;
  readonly kind: WebhookKind;
  readonly secret: string;
  readonly previous_secret: string | null;
  readonly previous_secret_expires_at: number | null;
}

/** A leased delivery row, as claims and fan-outs return it. */
export interface LeasedDelivery {
  readonly id: string;
  readonly webhook_id: string;
  readonly event_id: string;
  readonly attempts: number;
  readonly retry_base: number;
  readonly lease_owner: string | null;
  readonly lease_expires_at: number | null;
}

const idsPerStatement = 500;

/**
 * Leased deliveries made ready to send: each with its event's type and payload (read by
 * primary key) and its webhook (given); rows whose event, webhook or lease is gone are
 * left out. Keeps the order of `deliveries`.
 */
export async function toDeliveryJobs(db: Db, deliveries: readonly LeasedDelivery[], webhooks: ReadonlyMap<string, SendableWebhook>): Promise<DeliveryJob[]> {
  const events = new Map<string, { id: string; type: string; payload: string; test: number }>();
  const eventIds = [...new Set(deliveries.map((row) => row.event_id))];
  for (let start = 0; start < eventIds.length; start += idsPerStatement) {
    const rows = await db.selectFrom('events').select(['id', 'type', 'payload', 'test']).where('id', 'in', eventIds.slice(start, start + idsPerStatement)).execute();
    for (const row of rows) events.set(row.id, row);
  }
  const jobs: DeliveryJob[] = [];
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
      test: event.test === 1,
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
  return jobs;
}

/**
 * Loads leased deliveries by id with their event and webhook; ids that vanished are left
 * out. Lookups by primary key rather than one join: with a join, a planner may start from the
 * webhook and walk every delivery ever made to it.
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
    const webhookIds = [...new Set(deliveries.map((row) => row.webhook_id))];
    const webhooks = await db.selectFrom('webhooks').select(sendableWebhookColumns).where('id', 'in', webhookIds).execute();
    jobs.push(...(await toDeliveryJobs(db, deliveries, new Map(webhooks.map((row) => [row.id, row])))));
  }
  return jobs;
}
