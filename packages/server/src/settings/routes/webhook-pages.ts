import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseDuration, ServiceError } from '@svc/protocol';
import { resendDelivery } from '../../operations/deliveries.js';
import { webhookDeliveryLog } from '../../operations/delivery-log.js';
import { replayDeliveries } from '../../operations/replay-deliveries.js';
import { listWebhookStatuses } from '../../operations/webhook-health.js';
import { createWebhook, disableWebhook, enableWebhook, getWebhook, removeWebhook, rotateWebhookSecret, testWebhook } from '../../operations/webhooks.js';
import { redirectTo, sendPage } from '../render.js';
import type { SettingsRequestTools } from '../settings-tools.js';
import { DeliveryLogPage, replayPeriods } from '../views/delivery-log-page.js';
import { projectPath } from '../views/overview-page.js';
import { DeleteWebhookPage, WebhooksPage, type WebhookFormValues } from '../views/webhooks-page.js';
import { field, projectPageBase, type Body, type ProjectParams } from './route-params.js';

interface WebhookParams extends ProjectParams {
  id: string;
}

/** Fixed notices after Post/Redirect/Get: the query names one, never free text. */
const notices: Record<string, string> = {
  enabled: 'Webhook enabled. New events are delivered to it again.',
  disabled: 'Webhook disabled. Nothing is sent to it until you enable it.',
  deleted: 'Webhook deleted.',
  'test-succeeded': 'Test event sent: the receiver answered 2xx.',
  'test-failed': 'Test event sent, but the receiver did not answer 2xx. The delivery log has the details; it is retried like any other.',
  resent: 'Delivery queued again: it is attempted right away.',
  replayed: 'Deliveries queued again: they are sent over the next moments.',
  'replayed-none': 'Nothing to replay: no delivery of that period matched.',
};

const noticeOf = (request: FastifyRequest): string | undefined => {
  const done = (request.query as Record<string, unknown>)['done'];
  return typeof done === 'string' ? notices[done] : undefined;
};

/** Settings → Webhooks and each webhook's delivery log (docs/settings.md). */
export function webhookPages(app: FastifyInstance, tools: SettingsRequestTools): void {
  const webhooksPath = (params: ProjectParams) => `${projectPath(params.workspace, params.project)}/webhooks`;

  const showWebhooks = async (request: FastifyRequest, reply: FastifyReply, params: ProjectParams, status: number, extra: Partial<Parameters<typeof WebhooksPage>[0]>) => {
    const { base, principal, context } = await projectPageBase(tools, request, params);
    const webhooks = await listWebhookStatuses(context, principal, params);
    const notice = noticeOf(request);
    return sendPage(reply, status, WebhooksPage({ ...base, webhooks, ...(notice ? { notice } : {}), ...extra }));
  };

  app.get<{ Params: ProjectParams }>('/settings/:workspace/:project/webhooks', (request, reply) => showWebhooks(request, reply, request.params, 200, {}));

  app.post<{ Params: ProjectParams; Body: Body }>('/settings/:workspace/:project/webhooks', async (request, reply) => {
    const { context } = tools.dependencies;
    const principal = tools.session(request).principal;
    const values: WebhookFormValues = { url: field(request.body, 'url'), events: field(request.body, 'events'), description: field(request.body, 'description') };
    try {
      const created = await createWebhook(context, principal, {
        ...request.params,
        url: values.url,
        events: values.events.split(',').map((event) => event.trim()).filter(Boolean),
        description: values.description === '' ? null : values.description,
      });
      // The secret is shown in this answer and never again, so this POST answers with the page.
      return await showWebhooks(request, reply, request.params, 201, { secret: { webhookUrl: created.webhook.url, value: created.secret, rotated: false } });
    } catch (error) {
      if (!(error instanceof ServiceError) || (error.status !== 400 && error.status !== 422)) throw error;
      return showWebhooks(request, reply, request.params, error.status, { error: `The webhook was not added: ${error.message}`, values });
    }
  });

  const action = (name: string, run: (request: FastifyRequest<{ Params: WebhookParams }>) => Promise<string>) =>
    app.post<{ Params: WebhookParams }>(`/settings/:workspace/:project/webhooks/:id/${name}`, async (request, reply) => {
      const done = await run(request);
      return redirectTo(reply, `${webhooksPath(request.params)}?done=${done}`);
    });
  const principalOf = (request: FastifyRequest) => tools.session(request).principal;
  const { context } = tools.dependencies;

  action('enable', async (request) => (await enableWebhook(context, principalOf(request), request.params), 'enabled'));
  action('disable', async (request) => (await disableWebhook(context, principalOf(request), { ...request.params, reason: 'disabled in the settings area' }), 'disabled'));
  action('delete', async (request) => (await removeWebhook(context, principalOf(request), request.params), 'deleted'));
  action('test', async (request) => ((await testWebhook(context, principalOf(request), request.params)).succeeded ? 'test-succeeded' : 'test-failed'));

  app.post<{ Params: WebhookParams }>('/settings/:workspace/:project/webhooks/:id/rotate-secret', async (request, reply) => {
    const rotated = await rotateWebhookSecret(context, principalOf(request), request.params);
    return showWebhooks(request, reply, request.params, 200, { secret: { webhookUrl: rotated.webhook.url, value: rotated.secret, rotated: true } });
  });

  app.get<{ Params: WebhookParams }>('/settings/:workspace/:project/webhooks/:id/delete', async (request, reply) => {
    const { base, principal } = await projectPageBase(tools, request, request.params);
    const webhook = await getWebhook(context, principal, request.params);
    return sendPage(reply, 200, DeleteWebhookPage({ ...base, webhookId: webhook.id, url: webhook.url }));
  });

  app.get<{ Params: WebhookParams; Querystring: { status?: string; event?: string; cursor?: string } }>('/settings/:workspace/:project/webhooks/:id', async (request, reply) => {
    const { base, principal } = await projectPageBase(tools, request, request.params);
    const status = ['pending', 'succeeded', 'failed'].includes(request.query.status ?? '') ? (request.query.status as 'pending' | 'succeeded' | 'failed') : undefined;
    const eventType = request.query.event ? request.query.event.slice(0, 100) : undefined;
    const cursor = request.query.cursor ? request.query.cursor : undefined;
    const log = await webhookDeliveryLog(context, principal, { ...request.params, webhookId: request.params.id, status, eventType, cursor, limit: 50 });
    const notice = noticeOf(request);
    return sendPage(reply, 200, DeliveryLogPage({ ...base, log, filters: { status: status ?? '', eventType: eventType ?? '', cursor }, ...(notice ? { notice } : {}) }));
  });

  app.post<{ Params: WebhookParams; Body: Body }>('/settings/:workspace/:project/webhooks/:id/replay', async (request, reply) => {
    const period = replayPeriods.find(([value]) => value === field(request.body, 'period'))?.[0] ?? '24h';
    const now = context.now();
    const result = await replayDeliveries(context, principalOf(request), {
      ...request.params,
      webhookId: request.params.id,
      since: new Date(now - parseDuration(period)).toISOString(),
      until: new Date(now).toISOString(),
      status: field(request.body, 'status') === 'all' ? 'all' : 'failed',
    });
    return redirectTo(reply, `${webhooksPath(request.params)}/${encodeURIComponent(request.params.id)}?done=${result.replayed > 0 ? 'replayed' : 'replayed-none'}`);
  });

  app.post<{ Params: WebhookParams }>('/settings/:workspace/:project/deliveries/:id/resend', async (request, reply) => {
    const delivery = await resendDelivery(context, principalOf(request), request.params);
    return redirectTo(reply, `${webhooksPath(request.params)}/${encodeURIComponent(delivery.webhookId)}?done=resent`);
  });
}
