import { eventMatchesAny } from '@svc/protocol';
import type { Insertable } from 'kysely';
import { newId } from '../../lib/ids.js';
import type { BackendCapabilities } from '../capabilities.js';
import type { DeliveriesTable } from '../schema.js';
import type { Db } from '../store.js';
import type { Lease } from './claim-deliveries.js';
import { toDeliveryJobs, type DeliveryJob, type LeasedDelivery, type SendableWebhook } from './delivery-jobs.js';
import { insertEvent, type OutboxEvent } from './outbox.js';
import { parseStoredPatterns } from './webhooks.js';

export interface DispatchOptions {
  readonly now: number;
  /** Most events fanned out by one call. */
  readonly eventLimit: number;
  /**
   * New deliveries that `admit` admits (the worker's room for their webhook and project) are
   * leased at once, so they can be sent right away.
   */
  readonly lease: Lease & { readonly admit: (key: { readonly webhookId: string; readonly projectId: string }) => boolean };
}

export interface DispatchResult {
  readonly events: number;
  /** New deliveries leased to the caller, ready to send. */
  readonly leased: DeliveryJob[];
  /** Webhooks that got new deliveries the caller did not lease: they have due work nobody holds. */
  readonly unleased: { readonly webhookId: string; readonly projectId: string }[];
  /** The batch was full: more events may be waiting. */
  readonly more: boolean;
}

const rowsPerStatement = 200;

interface FanOutTarget {
  readonly id: string;
  readonly patterns: string[];
  readonly createdAt: number;
  readonly formEndpointId: string | null;
}

/**
 * Fans undispatched outbox events out, in the caller's transaction: one delivery per
 * enabled webhook of the event's project whose patterns match its type and that existed
 * when the event was created; then marks the events dispatched. On PostgreSQL the events
 * are locked with SKIP LOCKED, so instances fan out different events side by side.
 */
export async function dispatchEvents(trx: Db, capabilities: BackendCapabilities, options: DispatchOptions): Promise<DispatchResult> {
  let query = trx
    .selectFrom('events')
    .select(['id', 'project_id', 'type', 'created_at'])
    .where('dispatched_at', 'is', null)
    .orderBy('id')
    .limit(options.eventLimit);
  if (capabilities.skipLocked) query = query.forUpdate().skipLocked();
  const events = await query.execute();
  if (events.length === 0) return { events: 0, leased: [], unleased: [], more: false };

  const projectIds = [...new Set(events.map((event) => event.project_id))];
  const webhooks = await trx
    .selectFrom('webhooks')
    .leftJoin('forms', 'forms.id', 'webhooks.form_id')
    .select([
      'webhooks.id',
      'webhooks.url',
      'webhooks.project_id',
      'webhooks.kind',
      'webhooks.secret',
      'webhooks.previous_secret',
      'webhooks.previous_secret_expires_at',
      'webhooks.events',
      'webhooks.created_at',
      'forms.endpoint_id as form_endpoint_id',
    ])
    .where('webhooks.enabled', '=', 1)
    .where('webhooks.project_id', 'in', projectIds)
    .execute();
  const sendable = new Map<string, SendableWebhook>(webhooks.map((webhook) => [webhook.id, webhook]));
  const byProject = new Map<string, FanOutTarget[]>();
  for (const webhook of webhooks) {
    const list = byProject.get(webhook.project_id) ?? [];
    list.push({ id: webhook.id, patterns: parseStoredPatterns(webhook.events), createdAt: webhook.created_at, formEndpointId: webhook.form_endpoint_id });
    byProject.set(webhook.project_id, list);
  }
  const formOf = await formsOfEvents(trx, events, byProject);

  const rows: Insertable<DeliveriesTable>[] = [];
  const unleased = new Map<string, string>();
  for (const event of events) {
    for (const webhook of byProject.get(event.project_id) ?? []) {
      if (webhook.createdAt > event.created_at || !eventMatchesAny(webhook.patterns, event.type)) continue;
      // A form's notification target takes only that form's events.
      if (webhook.formEndpointId !== null && formOf.get(event.id) !== webhook.formEndpointId) continue;
      const leased = options.lease.admit({ webhookId: webhook.id, projectId: event.project_id });
      if (!leased) unleased.set(webhook.id, event.project_id);
      rows.push(newDeliveryRow({ eventId: event.id, webhookId: webhook.id, now: options.now, lease: leased ? options.lease : null }));
    }
  }

  const leased: LeasedDelivery[] = [];
  for (let start = 0; start < rows.length; start += rowsPerStatement) {
    const inserted = await trx
      .insertInto('deliveries')
      .values(rows.slice(start, start + rowsPerStatement))
      .onConflict((conflict) => conflict.columns(['event_id', 'webhook_id']).doNothing())
      .returning(['id', 'webhook_id', 'event_id', 'attempts', 'retry_base', 'lease_owner', 'lease_expires_at'])
      .execute();
    for (const row of inserted) if (row.lease_owner !== null) leased.push(row);
  }
  await trx
    .updateTable('events')
    .set({ dispatched_at: options.now })
    .where(
      'id',
      'in',
      events.map((event) => event.id),
    )
    .execute();
  return {
    events: events.length,
    leased: await toDeliveryJobs(trx, leased, sendable),
    unleased: [...unleased].map(([webhookId, projectId]) => ({ webhookId, projectId })),
    more: events.length === options.eventLimit,
  };
}

/**
 * The form (endpoint id) of each event that a form's notification target could take; only
 * those events' payloads are read, and only when their project has such a target.
 */
async function formsOfEvents(
  trx: Db,
  events: readonly { id: string; project_id: string }[],
  byProject: ReadonlyMap<string, readonly FanOutTarget[]>,
): Promise<Map<string, string>> {
  const ids = events.filter((event) => byProject.get(event.project_id)?.some((webhook) => webhook.formEndpointId !== null)).map((event) => event.id);
  const forms = new Map<string, string>();
  if (ids.length === 0) return forms;
  for (const row of await trx.selectFrom('events').select(['id', 'payload']).where('id', 'in', ids).execute()) {
    const form = (JSON.parse(row.payload) as { data?: { form?: { id?: unknown } } }).data?.form?.id;
    if (typeof form === 'string') forms.set(row.id, form);
  }
  return forms;
}

/** A new delivery of an event to a webhook, due now, leased to `lease.owner` when given. */
export function newDeliveryRow(delivery: { id?: string; eventId: string; webhookId: string; now: number; lease: { owner: string; expiresAt: number } | null }): Insertable<DeliveriesTable> {
  return {
    id: delivery.id ?? newId('dlv', delivery.now),
    event_id: delivery.eventId,
    webhook_id: delivery.webhookId,
    status: 'pending',
    attempts: 0,
    retry_base: 0,
    next_attempt_at: delivery.now,
    lease_owner: delivery.lease?.owner ?? null,
    lease_expires_at: delivery.lease?.expiresAt ?? null,
    last_status_code: null,
    last_error: null,
    created_at: delivery.now,
    updated_at: delivery.now,
    completed_at: null,
  };
}

/** Gives `to` a pending delivery of every event `from` still has pending, due now. */
export async function copyPendingDeliveries(trx: Db, from: string, to: string, now: number): Promise<void> {
  const pending = await trx.selectFrom('deliveries').select('event_id').where('webhook_id', '=', from).where('status', '=', 'pending').execute();
  if (pending.length === 0) return;
  await trx
    .insertInto('deliveries')
    .values(pending.map((row) => newDeliveryRow({ eventId: row.event_id, webhookId: to, now, lease: null })))
    .onConflict((conflict) => conflict.columns(['event_id', 'webhook_id']).doNothing())
    .execute();
}

/**
 * An event meant for one webhook only (`svc webhooks test`, marked `test`): stored as
 * already dispatched, with its one delivery leased to the caller, who sends it at once.
 */
export async function insertDirectEvent(
  trx: Db,
  event: OutboxEvent,
  delivery: { id: string; webhookId: string; lease: { owner: string; expiresAt: number } },
  options: { test: boolean },
): Promise<void> {
  await insertEvent(trx, event, { dispatchedAt: event.now, test: options.test });
  await trx.insertInto('deliveries').values(newDeliveryRow({ id: delivery.id, eventId: event.id, webhookId: delivery.webhookId, now: event.now, lease: delivery.lease })).execute();
}

