import { CreateWebhookRequest, DisableWebhookRequest, ListWebhooksResponse, ProjectParams, RotateSecretRequest, TestWebhookRequest, TestWebhookResponse, WebhookParams, WebhookResponse, WebhookWithSecretResponse } from '@svc/protocol/api';
import {
  createWebhook,
  disableWebhook,
  enableWebhook,
  listWebhooks,
  removeWebhook,
  rotateWebhookSecret,
  testWebhook,
} from '../../operations/webhooks.js';
import { ok, principalOf, type CliRoutes } from './cli-api-instance.js';

/** A project's webhooks (`svc webhooks …`). Only create and rotate-secret answer with a secret. */
export const webhookRoutes: CliRoutes = (app, context) => {
  app.get('/projects/:workspace/:project/webhooks', { schema: { params: ProjectParams, response: { 200: ListWebhooksResponse } } }, async (request) =>
    ok({ webhooks: await listWebhooks(context, principalOf(request), request.params) }),
  );

  app.post('/projects/:workspace/:project/webhooks', { schema: { params: ProjectParams, body: CreateWebhookRequest, response: { 200: WebhookWithSecretResponse } } }, async (request) =>
    ok(await createWebhook(context, principalOf(request), { ...request.params, ...request.body })),
  );

  app.delete('/projects/:workspace/:project/webhooks/:id', { schema: { params: WebhookParams, response: { 200: WebhookResponse } } }, async (request) =>
    ok({ webhook: await removeWebhook(context, principalOf(request), request.params) }),
  );

  app.post(
    '/projects/:workspace/:project/webhooks/:id/rotate-secret',
    { schema: { params: WebhookParams, body: RotateSecretRequest, response: { 200: WebhookWithSecretResponse } } },
    async (request) => ok(await rotateWebhookSecret(context, principalOf(request), { ...request.params, gracePeriodSeconds: request.body.gracePeriodSeconds })),
  );

  app.post('/projects/:workspace/:project/webhooks/:id/test', { schema: { params: WebhookParams, body: TestWebhookRequest, response: { 200: TestWebhookResponse } } }, async (request) =>
    ok(await testWebhook(context, principalOf(request), { ...request.params, event: request.body.event })),
  );

  app.post('/projects/:workspace/:project/webhooks/:id/enable', { schema: { params: WebhookParams, response: { 200: WebhookResponse } } }, async (request) =>
    ok({ webhook: await enableWebhook(context, principalOf(request), request.params) }),
  );

  app.post('/projects/:workspace/:project/webhooks/:id/disable', { schema: { params: WebhookParams, body: DisableWebhookRequest, response: { 200: WebhookResponse } } }, async (request) =>
    ok({ webhook: await disableWebhook(context, principalOf(request), { ...request.params, reason: request.body.reason }) }),
  );
};
