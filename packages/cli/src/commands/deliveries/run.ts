import { cliPaths, deliveryListPageSize, parseDuration, ServiceError } from '@svc/protocol';
import { DeliveryResponse, ListDeliveriesResponse, ReplayDeliveriesResponse, ResendDeliveryResponse, type DeliveryInfo } from '@svc/protocol/api';
import type { ContextOf } from '../../command.js';
import { parsePageLimit } from '../../page-limit.js';
import { requireArgument } from '../../require-argument.js';
import { callProject } from '../../server-call.js';
import type { deliveriesList, deliveriesReplay, deliveriesResend, deliveriesShow } from './commands.js';

export async function list(context: ContextOf<typeof deliveriesList>): Promise<number> {
  const { options, out } = context;
  const limit = options.limit === undefined ? undefined : parsePageLimit(options.limit, deliveryListPageSize.max);
  const query = { webhook: options.webhook, status: options.status, limit, cursor: options.cursor };
  return callProject(
    context,
    ({ api, ref }) => api.get(cliPaths.deliveries(ref.workspace, ref.project), ListDeliveriesResponse, query),
    (page) =>
      page.deliveries.length === 0
        ? 'No deliveries.'
        : out.table(page.deliveries, [
            { header: 'ID', value: (delivery) => delivery.id },
            { header: 'WEBHOOK', value: (delivery) => delivery.webhookId },
            { header: 'EVENT', value: (delivery) => delivery.eventType },
            { header: 'STATUS', value: (delivery) => delivery.status },
            { header: 'ATTEMPTS', value: (delivery) => String(delivery.attemptCount) },
            { header: 'LAST ANSWER', value: lastAnswer },
            { header: 'CREATED', value: (delivery) => delivery.createdAt },
          ]),
    (page) => page.nextCursor !== null && `More: svc deliveries list --cursor ${page.nextCursor} (with the same filters)`,
  );
}

export async function show(context: ContextOf<typeof deliveriesShow>): Promise<number> {
  const { out } = context;
  const id = requireArgument(context.args.id, 'the delivery\'s id');
  return callProject(
    context,
    ({ api, ref }) => api.get(cliPaths.delivery(ref.workspace, ref.project, id), DeliveryResponse),
    (result) => {
      const { delivery } = result;
      const next = delivery.nextAttemptAt === null ? '' : `, next attempt at ${delivery.nextAttemptAt}`;
      const header = `${delivery.id}: ${delivery.eventType} (${delivery.eventId}) to ${delivery.webhookId}: ${delivery.status}${next}`;
      if (result.attempts.length === 0) return `${header}\nNo attempt yet.`;
      return `${header}\n\n${out.table(result.attempts, [
        { header: 'ATTEMPT', value: (attempt) => String(attempt.attempt) },
        { header: 'STARTED', value: (attempt) => attempt.startedAt },
        { header: 'TOOK', value: (attempt) => `${attempt.durationMs} ms` },
        { header: 'ANSWER', value: (attempt) => (attempt.statusCode === null ? (attempt.error ?? '') : `HTTP ${attempt.statusCode}`) },
        { header: 'BODY', value: (attempt) => (attempt.responseBody ?? '').replace(/\s+/g, ' ').slice(0, 60) },
      ])}`;
    },
  );
}

export async function resend(context: ContextOf<typeof deliveriesResend>): Promise<number> {
  const id = requireArgument(context.args.id, 'the delivery\'s id');
  return callProject(
    context,
    ({ api, ref }) => api.post(cliPaths.resendDelivery(ref.workspace, ref.project, id), {}, ResendDeliveryResponse),
    (result) => `Queued delivery ${result.delivery.id} (${result.delivery.eventType}) again: it is sent now.`,
  );
}

export async function replay(context: ContextOf<typeof deliveriesReplay>): Promise<number> {
  const { options } = context;
  if (options.webhook === undefined || options.webhook === '') throw new ServiceError('usage', 'name the webhook with --webhook');
  if (options.since === undefined || options.since === '') throw new ServiceError('usage', 'say from when with --since, e.g. --since 24h');
  const now = Date.now();
  const body = {
    webhook: options.webhook,
    since: timeFrom(options.since, '--since', now),
    ...(options.until === undefined ? {} : { until: timeFrom(options.until, '--until', now) }),
    ...(options.status === undefined ? {} : { status: options.status }),
  };
  return callProject(
    context,
    ({ api, ref }) => api.post(cliPaths.replayDeliveries(ref.workspace, ref.project), body, ReplayDeliveriesResponse),
    (result) =>
      result.replayed === 0
        ? `No ${result.status === 'all' ? 'finished' : 'failed'} delivery of ${result.webhookId} between ${result.since} and ${result.until}.`
        : `Queued ${result.replayed} ${result.replayed === 1 ? 'delivery' : 'deliveries'} of ${result.webhookId} again (created ${result.since} to ${result.until}).`,
  );
}

/** An ISO 8601 time as given, or a duration back from now (`2h`, `3d`) as an ISO time. */
function timeFrom(text: string, flag: string, now: number): string {
  if (/^\d{4}-\d{2}-\d{2}/.test(text.trim())) return text.trim();
  try {
    return new Date(now - parseDuration(text)).toISOString();
  } catch {
    throw new ServiceError('usage', `${flag} takes an ISO 8601 time (2026-11-24T09:00:00Z) or a duration ago (6h, 3d)`);
  }
}

function lastAnswer(delivery: DeliveryInfo): string {
  if (delivery.lastStatusCode !== null) return `HTTP ${delivery.lastStatusCode}`;
  return delivery.lastError ?? '';
}
