import { ServiceError, defaultRotationGraceSeconds, isEventType, maxRotationGraceSeconds, webhookDescriptionLimit, type EventType } from '@svc/protocol';
import type { DeliveryAttemptInfo, DeliveryInfo, WebhookInfo } from '@svc/protocol/api';
import { randomToken, newId } from '../lib/ids.js';
import { DeliverySender } from '../delivery/delivery-sender.js';
import { HttpSender } from '../delivery/http-sender.js';
import { findAttempt, findDelivery } from '../store/queries/deliveries.js';
import { loadDeliveryJobs } from '../store/queries/delivery-jobs.js';
import { insertDirectEvent } from '../store/queries/dispatch-events.js';
import { recordAttempts } from '../store/queries/record-attempts.js';
import { lockProject } from '../store/queries/projects.js';
import {
  countProjectHttpWebhooks,
  deleteWebhook,
  disableWebhooks,
  enableWebhook as markEnabled,
  findProjectWebhook,
  insertWebhook,
  listProjectWebhooks,
  parseStoredPatterns,
  rotateWebhookSecret as storeRotatedSecret,
} from '../store/queries/webhooks.js';
import type { WebhookRow } from '../store/schema.js';
import type { Db } from '../store/store.js';
import { checkEventPatterns } from '../webhooks/event-patterns.js';
import { sampleEvent } from '../webhooks/sample-event.js';
import { generateSigningSecret, signingSecretContext } from '../webhooks/signing-secret.js';
import { checkWebhookUrl } from '../webhooks/webhook-url.js';
import { recordAudit } from './audit-log.js';
import type { OperationContext, Principal } from './context.js';
import { toAttemptView, toDeliveryInfo } from './deliveries.js';
import { isoTime, isoTimeOrNull } from '../lib/iso-time.js';
import { projectInScope, type ProjectInScope } from './scope.js';

/** The answer of create and rotate-secret: the only times the secret is shown. */
export interface WebhookWithSecret {
  readonly webhook: WebhookInfo;
  /** `whsec_…`: keep it; it cannot be shown again. */
  readonly secret: string;
}

export interface WebhookProjectInput {
  readonly workspace: string;
  readonly project: string;
}

export interface WebhookIdInput extends WebhookProjectInput {
  readonly id: string;
}

export interface CreateWebhookInput extends WebhookProjectInput {
  /** http:// or https://. */
  readonly url: string;
  /** Patterns; entries may also be comma-separated lists. */
  readonly events: readonly string[];
  readonly description?: string | null | undefined;
}

export interface DisableWebhookInput extends WebhookIdInput {
  readonly reason?: string | undefined;
}

export interface RotateWebhookSecretInput extends WebhookIdInput {
  /** How long the old secret keeps signing too: 0 to `maxRotationGraceSeconds` (7 days); default 1 day. */
  readonly gracePeriodSeconds?: number | undefined;
}

export interface TestWebhookInput extends WebhookIdInput {
  /** Any catalog type; default `form.submission.created`. */
  readonly event?: string | undefined;
}

export interface WebhookTestResult {
  /** True when the receiver answered 2xx. */
  readonly succeeded: boolean;
  readonly event: { readonly id: string; readonly type: EventType };
  /** The delivery after its first attempt: retried like any other when that failed. */
  readonly delivery: DeliveryInfo;
  readonly attempt: DeliveryAttemptInfo;
}

const defaultTestEvent: EventType = 'form.submission.created';

/** `svc webhooks add`: a new, enabled webhook; its secret is in the answer and never again. */
export async function createWebhook(context: OperationContext, principal: Principal, input: CreateWebhookInput): Promise<WebhookWithSecret> {
  const url = checkWebhookUrl(input.url, { allowPrivateTargets: context.options.allowPrivateTargets });
  const patterns = checkEventPatterns(input.events);
  const description = input.description === undefined || input.description === null ? null : String(input.description).trim() || null;
  const errors: Record<string, string> = {};
  if (!url.ok) errors['url'] = url.problem;
  if (!patterns.ok) errors['events'] = patterns.problem;
  if (description !== null && description.length > webhookDescriptionLimit) errors['description'] = `must be at most ${webhookDescriptionLimit} characters`;
  if (!url.ok || !patterns.ok || Object.keys(errors).length > 0) {
    throw new ServiceError('validation_failed', Object.entries(errors).map(([field, problem]) => `${field} ${problem}`).join('; '), { errors });
  }

  const box = context.secrets;
  const secret = generateSigningSecret();
  const now = context.now();
  const id = newId('wh', now);
  const { scope, row } = await context.store.transaction(async (trx) => {
    const scope = await projectInScope(trx, principal, input.workspace, input.project);
    // Under the project's lock, so two webhooks added at once cannot both take the last place.
    await lockProject(trx, scope.project.id);
    const limit = context.options.maxWebhooksPerProject;
    if ((await countProjectHttpWebhooks(trx, scope.project.id)) >= limit) {
      throw new ServiceError('conflict', `a project has at most ${limit} webhooks; remove one first (svc webhooks remove)`, { limit });
    }
    const row: WebhookRow = {
      id,
      project_id: scope.project.id,
      url: url.url,
      events: JSON.stringify(patterns.patterns),
      description,
      secret: box.seal(secret, signingSecretContext(id)),
      previous_secret: null,
      previous_secret_expires_at: null,
      enabled: 1,
      disabled_reason: null,
      kind: 'http',
      form_id: null,
      failing_since: null,
      created_at: now,
      updated_at: now,
    };
    await insertWebhook(trx, row);
    await recordAudit(trx, context, principal, { action: 'webhook.created', workspaceId: scope.workspace.id, projectId: scope.project.id, object: { type: 'webhook', id: id } });
    return { scope, row };
  });
  return { webhook: toWebhookInfo(scope, row, context.now()), secret };
}

/** `svc webhooks list`: the project's webhooks, oldest first. */
export async function listWebhooks(context: OperationContext, principal: Principal, input: WebhookProjectInput): Promise<WebhookInfo[]> {
  const scope = await projectInScope(context.store.db, principal, input.workspace, input.project);
  return (await listProjectWebhooks(context.store.db, scope.project.id)).map((row) => toWebhookInfo(scope, row, context.now()));
}

export async function getWebhook(context: OperationContext, principal: Principal, input: WebhookIdInput): Promise<WebhookInfo> {
  const { scope, webhook } = await webhookInScope(context.store.db, principal, input);
  return toWebhookInfo(scope, webhook, context.now());
}

/** `svc webhooks remove`: deletes the webhook with its deliveries and their log; nothing more is sent to it. */
export async function removeWebhook(context: OperationContext, principal: Principal, input: WebhookIdInput): Promise<WebhookInfo> {
  return context.store.transaction(async (trx) => {
    const { scope, webhook } = await webhookInScope(trx, principal, input);
    refuseForNotifications(webhook, 'removed', 'change them with `svc forms set SLUG --notify none`');
    await deleteWebhook(trx, webhook.id);
    await recordAudit(trx, context, principal, { action: 'webhook.deleted', workspaceId: scope.workspace.id, projectId: scope.project.id, object: { type: 'webhook', id: webhook.id } });
    return toWebhookInfo(scope, webhook, context.now());
  });
}

/** Turns deliveries back on for new events; deliveries failed meanwhile can be resent by hand. */
export async function enableWebhook(context: OperationContext, principal: Principal, input: WebhookIdInput): Promise<WebhookInfo> {
  const view = await context.store.transaction(async (trx) => {
    const { scope, webhook } = await webhookInScope(trx, principal, input);
    if (webhook.enabled !== 1) {
      await markEnabled(trx, webhook.id, context.now());
      await recordAudit(trx, context, principal, { action: 'webhook.updated', workspaceId: scope.workspace.id, projectId: scope.project.id, object: { type: 'webhook', id: webhook.id } });
    }
    return toWebhookInfo(scope, (await findProjectWebhook(trx, scope.project.id, webhook.id))!, context.now());
  });
  context.store.signals.events.announce();
  return view;
}

/** Stops deliveries: new events are not delivered to it, and its pending deliveries fail. */
export async function disableWebhook(context: OperationContext, principal: Principal, input: DisableWebhookInput): Promise<WebhookInfo> {
  const reason = input.reason?.trim() || 'disabled by hand';
  if (reason.length > webhookDescriptionLimit) {
    throw new ServiceError('validation_failed', `reason must be at most ${webhookDescriptionLimit} characters`, { errors: { reason: `must be at most ${webhookDescriptionLimit} characters` } });
  }
  return context.store.transaction(async (trx) => {
    const { scope, webhook } = await webhookInScope(trx, principal, input);
    if (webhook.enabled === 1) {
      await disableWebhooks(trx, [webhook.id], reason, context.now());
      await recordAudit(trx, context, principal, { action: 'webhook.updated', workspaceId: scope.workspace.id, projectId: scope.project.id, object: { type: 'webhook', id: webhook.id } });
    }
    return toWebhookInfo(scope, (await findProjectWebhook(trx, scope.project.id, webhook.id))!, context.now());
  });
}

/**
 * `svc webhooks rotate-secret`: a new secret signs from now on; the current one keeps signing
 * alongside it (its own `v1=`) for the grace period, so receivers can switch without failing
 * a delivery. A secret still in its grace period from an earlier rotation stops at once.
 */
export async function rotateWebhookSecret(context: OperationContext, principal: Principal, input: RotateWebhookSecretInput): Promise<WebhookWithSecret> {
  const graceSeconds = input.gracePeriodSeconds ?? defaultRotationGraceSeconds;
  if (!Number.isSafeInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > maxRotationGraceSeconds) {
    const problem = `must be a whole number of seconds from 0 to ${maxRotationGraceSeconds}`;
    throw new ServiceError('validation_failed', `gracePeriodSeconds ${problem}`, { errors: { gracePeriodSeconds: problem } });
  }
  const box = context.secrets;
  const secret = generateSigningSecret();
  const now = context.now();
  const { scope, row } = await context.store.transaction(async (trx) => {
    const { scope, webhook } = await webhookInScope(trx, principal, input);
    refuseForNotifications(webhook, 'given a signing secret', 'emails are not signed');
    await storeRotatedSecret(trx, webhook.id, box.seal(secret, signingSecretContext(webhook.id)), graceSeconds === 0 ? null : now + graceSeconds * 1_000, now);
    await recordAudit(trx, context, principal, { action: 'webhook.secret_rotated', workspaceId: scope.workspace.id, projectId: scope.project.id, object: { type: 'webhook', id: webhook.id } });
    return { scope, row: (await findProjectWebhook(trx, scope.project.id, webhook.id))! };
  });
  return { webhook: toWebhookInfo(scope, row, context.now()), secret };
}

/**
 * `svc webhooks test`: sends a signed sample event of any catalog type to this webhook only,
 * now, and answers with that attempt. The event is recorded already dispatched, so no other
 * webhook gets it; its delivery is logged and, when the attempt failed, retried like any other.
 */
export async function testWebhook(context: OperationContext, principal: Principal, input: TestWebhookInput): Promise<WebhookTestResult> {
  const type = input.event ?? defaultTestEvent;
  if (!isEventType(type)) {
    throw new ServiceError('validation_failed', `event "${type}" is not in the event catalog`, { errors: { event: 'must be an event type from the catalog' } });
  }
  const settings = context.delivery;
  const box = context.secrets;
  const now = context.now();
  const eventId = newId('evt', now);
  const deliveryId = newId('dlv', now);
  const leaseOwner = `test/${randomToken(40)}`;

  const jobs = await context.store.transaction(async (trx) => {
    const { scope, webhook } = await webhookInScope(trx, principal, input);
    if (webhook.enabled !== 1) throw new ServiceError('conflict', `webhook ${webhook.id} is disabled; enable it before testing it`);
    const payload = JSON.stringify(sampleEvent(type, { eventId, workspace: scope.workspace.slug, project: scope.project.name, now }));
    await insertDirectEvent(
      trx,
      { id: eventId, projectId: scope.project.id, type, payload, now },
      { id: deliveryId, webhookId: webhook.id, lease: { owner: leaseOwner, expiresAt: now + settings.leaseMs } },
      { test: true },
    );
    await recordAudit(trx, context, principal, { action: 'webhook.tested', workspaceId: scope.workspace.id, projectId: scope.project.id, object: { type: 'webhook', id: webhook.id } });
    return loadDeliveryJobs(trx, [deliveryId]);
  });
  const [job] = jobs;
  if (!job) throw new ServiceError('not_found', `no webhook "${input.id}" in project "${input.project}"`);

  const http = new HttpSender(settings, context.now);
  // The worker's sender, recording this one attempt on its own, durably.
  const sender = new DeliverySender({
    sender: http,
    mail: context.mail,
    box,
    policy: settings.policy,
    now: context.now,
    record: async (record) => (await context.store.transaction((trx) => recordAttempts(trx, [record], context.now())))[0] ?? false,
  });
  let result;
  try {
    ({ result } = await sender.send(job));
  } finally {
    await http.close();
  }
  // A failed test is retried by the workers; tell them a delivery is scheduled.
  if (result.record.status === 'pending') context.store.signals.events.announce();

  const delivery = await findDelivery(context.store.db, deliveryId);
  const attempt = await findAttempt(context.store.db, deliveryId, 1);
  if (!delivery || !attempt) throw new ServiceError('not_found', `the webhook "${input.id}" was removed during the test`);
  return { succeeded: result.record.status === 'succeeded', event: { id: eventId, type }, delivery: toDeliveryInfo(delivery), attempt: toAttemptView(attempt) };
}

/** A form's notification target is managed through the form's settings, not as a webhook. */
function refuseForNotifications(webhook: WebhookRow, what: string, instead: string): void {
  if (webhook.kind === 'email') throw new ServiceError('conflict', `${webhook.id} sends a form's notification emails and cannot be ${what}: ${instead}`);
}

async function webhookInScope(db: Db, principal: Principal, input: WebhookIdInput): Promise<{ scope: ProjectInScope; webhook: WebhookRow }> {
  const scope = await projectInScope(db, principal, input.workspace, input.project);
  const webhook = typeof input.id === 'string' ? await findProjectWebhook(db, scope.project.id, input.id) : undefined;
  if (!webhook) throw new ServiceError('not_found', `no webhook "${String(input.id)}" in project "${input.project}"`);
  return { scope, webhook };
}

function toWebhookInfo(scope: ProjectInScope, row: WebhookRow, now: number): WebhookInfo {
  return {
    id: row.id,
    workspace: scope.workspace.slug,
    project: scope.project.name,
    url: row.url,
    events: parseStoredPatterns(row.events),
    description: row.description,
    enabled: row.enabled === 1,
    disabledReason: row.enabled === 1 ? null : row.disabled_reason,
    health: row.enabled !== 1 ? 'disabled' : row.failing_since === null ? 'healthy' : 'failing',
    failingSince: row.enabled === 1 ? isoTimeOrNull(row.failing_since) : null,
    previousSecretExpiresAt: row.previous_secret !== null && (row.previous_secret_expires_at ?? 0) > now ? isoTimeOrNull(row.previous_secret_expires_at) : null,
    createdAt: isoTime(row.created_at),
    updatedAt: isoTime(row.updated_at),
  };
}
