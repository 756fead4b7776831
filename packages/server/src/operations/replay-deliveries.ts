import { replayDeliveriesPerSecond, ServiceError } from '@svc/protocol';
import { finishedDeliveriesOfWebhook, requeueDelivery } from '../store/queries/deliveries.js';
import { findProjectWebhook } from '../store/queries/webhooks.js';
import { recordAudit } from './audit-log.js';
import type { OperationContext, Principal } from './context.js';
import { isoTime } from '../lib/iso-time.js';
import { projectInScope } from './scope.js';

export interface ReplayInput {
  readonly workspace: string;
  readonly project: string;
  readonly webhookId: string;
  /** ISO 8601 times; deliveries created in [since, until) are replayed. */
  readonly since: string;
  readonly until?: string | undefined;
  /** `failed` (default): only failed deliveries; `all`: succeeded ones too. */
  readonly status?: 'failed' | 'all' | undefined;
}

const batch = 500;

/**
 * `svc deliveries replay` (docs/webhooks.md): after a receiver's outage, every finished
 * delivery of one webhook created in a time range is queued again, each with a fresh retry
 * budget, their due times spread at `replayDeliveriesPerSecond`. Deliveries still pending are left
 * alone: they are sent when due. Batches of `batch` per transaction.
 */
export async function replayDeliveries(
  context: OperationContext,
  principal: Principal,
  input: ReplayInput,
): Promise<{ webhookId: string; since: string; until: string; status: 'failed' | 'all'; replayed: number }> {
  const now = context.now();
  const since = parseTime(input.since, 'since');
  const until = input.until === undefined ? now : parseTime(input.until, 'until');
  if (until <= since) throw new ServiceError('validation_failed', 'until must be after since', { errors: { until: 'must be after since' } });
  const status = input.status ?? 'failed';
  const statuses = status === 'all' ? (['failed', 'succeeded'] as const) : (['failed'] as const);

  const { workspace, project } = await projectInScope(context.store.db, principal, input.workspace, input.project);
  const webhook = await findProjectWebhook(context.store.db, project.id, input.webhookId);
  if (!webhook) throw new ServiceError('not_found', `no webhook "${input.webhookId}" in project "${input.project}"`);
  if (webhook.enabled !== 1) throw new ServiceError('conflict', `webhook ${webhook.id} is disabled; enable it before replaying its deliveries`);

  let replayed = 0;
  let afterId: string | null = null;
  for (;;) {
    const ids = await finishedDeliveriesOfWebhook(context.store.db, { webhookId: webhook.id, since, until, statuses, afterId, limit: batch });
    if (ids.length === 0) break;
    await context.store.transaction(async (trx) => {
      const before = replayed;
      for (const id of ids) {
        if (await requeueDelivery(trx, id, now + Math.floor((replayed * 1000) / replayDeliveriesPerSecond))) replayed += 1;
      }
      // One entry for the whole replay, in the transaction of its first queued delivery.
      if (before === 0 && replayed > 0) {
        await recordAudit(trx, context, principal, { action: 'deliveries.replayed', workspaceId: workspace.id, projectId: project.id, object: { type: 'webhook', id: webhook.id } });
      }
    });
    context.store.signals.events.announce();
    afterId = ids.at(-1)!;
    if (ids.length < batch) break;
  }
  return { webhookId: webhook.id, since: isoTime(since), until: isoTime(until), status, replayed };
}

function parseTime(text: string, name: string): number {
  const value = Date.parse(text);
  if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(value)) {
    throw new ServiceError('validation_failed', `${name} must be an ISO 8601 time, e.g. 2026-11-24T09:00:00Z`, { errors: { [name]: 'must be an ISO 8601 time' } });
  }
  return value;
}
