import { cliPaths, maxRotationGraceSeconds, parseDuration, ServiceError } from '@svc/protocol';
import { ListWebhooksResponse, TestWebhookResponse, WebhookResponse, WebhookWithSecretResponse, type WebhookInfo } from '@svc/protocol/api';
import type { ContextOf } from '../../command.js';
import { requireArgument } from '../../require-argument.js';
import { callProject, openProject } from '../../server-call.js';
import type { webhooksAdd, webhooksDisable, webhooksEnable, webhooksList, webhooksRemove, webhooksRotateSecret, webhooksTest } from './commands.js';

export async function add(context: ContextOf<typeof webhooksAdd>): Promise<number> {
  const { options } = context;
  if (options.url === undefined || options.url === '') throw new ServiceError('usage', 'pass the receiver\'s address with --url');
  const events = (options.events ?? []).flatMap((value) => value.split(',')).map((pattern) => pattern.trim()).filter((pattern) => pattern !== '');
  if (events.length === 0) throw new ServiceError('usage', 'pass the events to send with --events, e.g. --events form.*');
  const body = { url: options.url, events, ...(options.description === undefined ? {} : { description: options.description }) };
  return callProject(
    context,
    ({ api, ref }) => api.post(cliPaths.webhooks(ref.workspace, ref.project), body, WebhookWithSecretResponse),
    (created) => [`Added webhook ${describeWebhook(created.webhook)}.`, `Signing secret (shown only this once): ${created.secret}`].join('\n'),
  );
}

export async function list(context: ContextOf<typeof webhooksList>): Promise<number> {
  const { out } = context;
  return callProject(
    context,
    ({ api, ref }) => api.get(cliPaths.webhooks(ref.workspace, ref.project), ListWebhooksResponse),
    (result, { ref }) =>
      result.webhooks.length === 0
        ? `${ref.workspace}/${ref.project} has no webhooks: add one with \`svc webhooks add --url URL --events form.*\`.`
        : out.table(result.webhooks, [
            { header: 'ID', value: (webhook) => webhook.id },
            { header: 'URL', value: (webhook) => webhook.url },
            { header: 'EVENTS', value: (webhook) => webhook.events.join(',') },
            { header: 'STATUS', value: webhookStatus },
            { header: 'DESCRIPTION', value: (webhook) => webhook.description ?? '' },
          ]),
  );
}

export async function remove(context: ContextOf<typeof webhooksRemove>): Promise<number> {
  const id = requireArgument(context.args.id, 'the webhook\'s id');
  return callProject(
    context,
    ({ api, ref }) => api.delete(cliPaths.webhook(ref.workspace, ref.project, id), WebhookResponse),
    (result) => `Removed webhook ${describeWebhook(result.webhook)}.`,
  );
}

export async function rotateSecret(context: ContextOf<typeof webhooksRotateSecret>): Promise<number> {
  const id = requireArgument(context.args.id, 'the webhook\'s id');
  const gracePeriodSeconds = context.options.grace === undefined ? undefined : graceSeconds(context.options.grace);
  return callProject(
    context,
    ({ api, ref }) => api.post(cliPaths.rotateWebhookSecret(ref.workspace, ref.project, id), { gracePeriodSeconds }, WebhookWithSecretResponse),
    (result) => {
      const until = result.webhook.previousSecretExpiresAt;
      return [
        `New signing secret for ${result.webhook.id} (shown only this once): ${result.secret}`,
        until === null ? 'The previous secret no longer signs.' : `The previous secret also signs until ${until}.`,
      ].join('\n');
    },
  );
}

/** Exit 0 when the receiver took the sample; `delivery_failed` (exit 1) when it did not. */
export async function test(context: ContextOf<typeof webhooksTest>): Promise<number> {
  const { options, out } = context;
  const id = requireArgument(context.args.id, 'the webhook\'s id');
  const { api, ref } = await openProject(context);
  const result = await api.post(cliPaths.testWebhook(ref.workspace, ref.project, id), options.event === undefined ? {} : { event: options.event }, TestWebhookResponse);
  const { attempt } = result;
  const answer = attempt.statusCode === null ? `no answer (${attempt.error ?? 'unknown error'})` : `HTTP ${attempt.statusCode}`;
  if (!result.succeeded) {
    const retry = result.delivery.nextAttemptAt === null ? '' : `; it is retried at ${result.delivery.nextAttemptAt}`;
    throw new ServiceError('delivery_failed', `the receiver did not accept ${result.event.type} (${result.event.id}): ${answer} after ${attempt.durationMs} ms${retry}`, {
      event: result.event,
      delivery: result.delivery,
      attempt,
    });
  }
  out.result(result, () => `Delivered ${result.event.type} (${result.event.id}): ${answer} in ${attempt.durationMs} ms (delivery ${result.delivery.id}).`);
  return 0;
}

export async function enable(context: ContextOf<typeof webhooksEnable>): Promise<number> {
  const id = requireArgument(context.args.id, 'the webhook\'s id');
  return callProject(
    context,
    ({ api, ref }) => api.post(cliPaths.enableWebhook(ref.workspace, ref.project, id), {}, WebhookResponse),
    (result) => `Enabled webhook ${describeWebhook(result.webhook)}.`,
  );
}

export async function disable(context: ContextOf<typeof webhooksDisable>): Promise<number> {
  const id = requireArgument(context.args.id, 'the webhook\'s id');
  const { reason } = context.options;
  return callProject(
    context,
    ({ api, ref }) => api.post(cliPaths.disableWebhook(ref.workspace, ref.project, id), reason === undefined ? {} : { reason }, WebhookResponse),
    (result) => `Disabled webhook ${describeWebhook(result.webhook)}.`,
  );
}

/** `healthy`, `failing since …`, or `disabled (reason)`. */
function webhookStatus(webhook: WebhookInfo): string {
  if (webhook.health === 'disabled') return `disabled (${webhook.disabledReason ?? 'by hand'})`;
  return webhook.health === 'failing' ? `failing since ${webhook.failingSince ?? '?'}` : 'healthy';
}

/** `wh_… → https://example.com/hook (form.*)`, plus its state when disabled. */
function describeWebhook(webhook: WebhookInfo): string {
  const state = webhook.enabled ? '' : `, disabled: ${webhook.disabledReason ?? 'by hand'}`;
  return `${webhook.id} → ${webhook.url} (${webhook.events.join(', ')}${state})`;
}

/** `24h`, `90m`, `0` → seconds, with the parser of the server's duration flags. */
function graceSeconds(text: string): number {
  let seconds: number;
  try {
    seconds = Math.round(parseDuration(text) / 1_000);
  } catch (error) {
    throw new ServiceError('usage', `--grace: ${(error as Error).message}`);
  }
  if (seconds > maxRotationGraceSeconds) throw new ServiceError('usage', '--grace may be at most 7d');
  return seconds;
}
