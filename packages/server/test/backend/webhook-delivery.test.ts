import { parseSignatureHeader, verify } from '@svc/webhooks';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { useBackendSuite } from '@svc/testkit/vitest';
import { adminPrincipal, createForm, eventually, type FormFixture, newEncryptionKey, operationContext, postJson, type Responder, selectBackend, startReceiver, type WebhookReceiver } from '@svc/testkit';
import { getDelivery, resendDelivery } from '../../src/operations/deliveries.js';
import { createWebhook, disableWebhook, rotateWebhookSecret, testWebhook } from '../../src/operations/webhooks.js';
import type { OperationContext } from '../../src/operations/context.js';
import { parseEncryptionKey } from '../../src/secrets/encryption-key.js';

const backend = await selectBackend();

// Short delays and a fast safety poll: the suite is driven by configuration, never by sleeping.
// The timeout stays well above what a loaded test machine needs to answer locally.
const retrySchedule = [100, 100, 100, 100, 100];
const serverFlags = ['--allow-private-targets', '--retry-schedule', '100ms,100ms,100ms,100ms,100ms', '--delivery-timeout', '2s', '--delivery-lease', '3s', '--delivery-poll-interval', '300ms'];

describe.runIf(backend.available)(`webhook delivery on ${backend.name}`, () => {
  const encryptionKey = newEncryptionKey();
  const suite = useBackendSuite({ args: serverFlags, env: { SVC_ENCRYPTION_KEY: encryptionKey } });
  let context: OperationContext;

  beforeAll(() => {
    context = operationContext(suite.store, {
      dataDir: suite.environment.dataDir,
      encryptionKey: parseEncryptionKey(encryptionKey),
      allowPrivateTargets: true,
      retrySchedule,
      deliveryTimeoutMs: 2_000,
      deliveryLeaseMs: 3_000,
    });
  });

  async function receiver(responder?: Responder): Promise<WebhookReceiver> {
    const started = await startReceiver(responder);
    onTestFinished(() => started.close());
    return started;
  }

  async function webhookFor(form: Pick<FormFixture, 'workspace' | 'project'>, target: WebhookReceiver, events: string[] = ['*']) {
    return createWebhook(context, adminPrincipal, { workspace: form.workspace, project: form.project, url: `${target.url}/hook`, events });
  }

  const submit = (form: FormFixture, fields: Record<string, unknown> = { email: 'ada@example.com' }, headers: Record<string, string> = {}) =>
    postJson(`${suite.server.url}/api/f/${form.endpointId}`, fields, headers);

  const deliveriesOf = (webhookId: string) => suite.store.db.selectFrom('deliveries').selectAll().where('webhook_id', '=', webhookId).execute();
  const attemptsOf = (deliveryId: string) => suite.store.db.selectFrom('delivery_attempts').selectAll().where('delivery_id', '=', deliveryId).orderBy('attempt').execute();
  const deliveryOf = async (webhookId: string) => (await deliveriesOf(webhookId))[0];
  const header = (request: { headers: Record<string, unknown> }, name: string) => request.headers[name] as string;
  const eventsDispatched = (form: FormFixture, count: number) =>
    eventually(
      () => suite.store.db.selectFrom('events').select('dispatched_at').where('project_id', '=', form.projectId).execute(),
      (rows) => rows.length >= count && rows.every((row) => row.dispatched_at !== null),
      `${count} dispatched events`,
    );

  it('delivers a submission, signed, with the documented headers', async () => {
    const form = await createForm(suite.store, { slug: 'contact', name: 'Contact' });
    const target = await receiver();
    const { webhook, secret } = await webhookFor(form, target, ['form.*']);

    // How soon it arrives is measured by the bench (submission → first attempt), not here.
    const answer = await submit(form, { name: 'Ada', email: 'ada@example.com' });
    expect(answer.status).toBe(200);
    const [request] = await target.waitFor(1);

    const [event] = await suite.store.db.selectFrom('events').selectAll().where('project_id', '=', form.projectId).execute();
    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/hook');
    expect(request!.body.toString('utf8')).toBe(event!.payload);
    expect(header(request!, 'content-type')).toBe('application/json');
    expect(header(request!, 'x-service-event')).toBe('form.submission.created');
    expect(header(request!, 'x-service-event-id')).toBe(event!.id);
    expect(header(request!, 'x-service-delivery')).toMatch(/^dlv_[0-9a-z]{26}$/);
    // A real event is not a test: no header, no `test` key.
    expect(request!.headers['x-service-test']).toBeUndefined();
    expect(JSON.parse(request!.body.toString('utf8'))).not.toHaveProperty('test');
    const { timestamp } = verify(request!.body, header(request!, 'x-service-signature'), secret);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(60);
    expect(parseSignatureHeader(header(request!, 'x-service-signature')).signatures).toHaveLength(1);
    expect(JSON.parse(request!.body.toString('utf8'))).toMatchObject({
      id: event!.id,
      type: 'form.submission.created',
      workspace: form.workspace,
      project: form.project,
      data: { form: { id: form.endpointId, slug: 'contact', name: 'Contact' }, submission: { id: (answer.body as { id: string }).id, fields: { name: 'Ada' } } },
    });

    const delivery = await eventually(() => deliveryOf(webhook.id), (row) => row?.status === 'succeeded', 'a succeeded delivery');
    expect(delivery!.id).toBe(header(request!, 'x-service-delivery'));
    const log = await getDelivery(context, adminPrincipal, { workspace: form.workspace, project: form.project, id: delivery!.id });
    expect(log.delivery).toMatchObject({ status: 'succeeded', attemptCount: 1, nextAttemptAt: null, lastStatusCode: 204, lastError: null });
    expect(log.attempts).toEqual([{ attempt: 1, startedAt: expect.any(String), durationMs: expect.any(Number), statusCode: 204, error: null, responseBody: null }]);
  });

  it('retries a failing receiver until it succeeds, with the same event and delivery ids', async () => {
    const form = await createForm(suite.store);
    const target = await receiver((_request, index) => (index < 2 ? { status: 500, body: `failure ${index + 1}` } : { status: 200, body: 'ok' }));
    const { webhook, secret } = await webhookFor(form, target);
    await submit(form);

    const requests = await target.waitFor(3);
    expect(new Set(requests.map((request) => header(request, 'x-service-event-id'))).size).toBe(1);
    expect(new Set(requests.map((request) => header(request, 'x-service-delivery'))).size).toBe(1);
    for (const request of requests) verify(request.body, header(request, 'x-service-signature'), secret);

    const delivery = await eventually(() => deliveryOf(webhook.id), (row) => row?.status === 'succeeded', 'a succeeded delivery');
    expect(delivery!.attempts).toBe(3);
    const attempts = await attemptsOf(delivery!.id);
    expect(attempts.map(({ attempt, status_code, response_body }) => ({ attempt, status_code, response_body }))).toEqual([
      { attempt: 1, status_code: 500, response_body: 'failure 1' },
      { attempt: 2, status_code: 500, response_body: 'failure 2' },
      { attempt: 3, status_code: 200, response_body: 'ok' },
    ]);
  });

  it('marks a delivery failed after the fifth retry, and a resend by hand starts a fresh budget', async () => {
    const form = await createForm(suite.store);
    const target = await receiver(() => ({ status: 503 }));
    const { webhook } = await webhookFor(form, target);
    await submit(form);

    await target.waitFor(6);
    const failed = await eventually(() => deliveryOf(webhook.id), (row) => row?.status === 'failed', 'a failed delivery');
    expect(failed).toMatchObject({ attempts: 6, last_status_code: 503, last_error: 'answered 503' });
    expect(target.requests).toHaveLength(6);

    target.respond(() => ({ status: 204 }));
    const scope = { workspace: form.workspace, project: form.project, id: failed!.id };
    const resent = await resendDelivery(context, adminPrincipal, scope);
    expect(resent).toMatchObject({ status: 'pending', attemptCount: 6, completedAt: null });
    await target.waitFor(7);
    await eventually(() => deliveryOf(webhook.id), (row) => row?.status === 'succeeded', 'the resent delivery to succeed');

    // A succeeded delivery can be resent too; the log keeps every attempt, numbered on.
    await resendDelivery(context, adminPrincipal, scope);
    await target.waitFor(8);
    const done = await eventually(() => deliveryOf(webhook.id), (row) => row?.status === 'succeeded' && row.attempts === 8, 'the second resend');
    expect((await attemptsOf(done!.id)).map((attempt) => [attempt.attempt, attempt.status_code])).toEqual([
      [1, 503], [2, 503], [3, 503], [4, 503], [5, 503], [6, 503], [7, 204], [8, 204],
    ]);
    expect(new Set(target.requests.map((request) => header(request, 'x-service-event-id'))).size).toBe(1);
  });

  it('disables the webhook on 410 Gone and sends it nothing more', async () => {
    const form = await createForm(suite.store);
    const target = await receiver(() => ({ status: 410 }));
    const { webhook } = await webhookFor(form, target);
    await submit(form);
    await target.waitFor(1);
    const delivery = await eventually(() => deliveryOf(webhook.id), (row) => row?.status === 'failed', 'a failed delivery');
    expect(delivery).toMatchObject({ attempts: 1, last_status_code: 410 });
    const row = await suite.store.db.selectFrom('webhooks').selectAll().where('id', '=', webhook.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ enabled: 0, disabled_reason: 'the endpoint answered 410 Gone' });

    await submit(form);
    await eventsDispatched(form, 2);
    expect(await deliveriesOf(webhook.id)).toHaveLength(1);
    expect(target.requests).toHaveLength(1);
  });

  it('honours Retry-After on 429', async () => {
    const form = await createForm(suite.store);
    const target = await receiver((_request, index) => (index === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 204 }));
    const { webhook } = await webhookFor(form, target);
    await submit(form);
    const [first, second] = await target.waitFor(2);
    // The schedule says 100 ms; the receiver asked for a second.
    expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(950);
    await eventually(() => deliveryOf(webhook.id), (row) => row?.status === 'succeeded', 'a succeeded delivery');
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    const form = await createForm(suite.store);
    const target = await receiver((request, index) => (request.path === '/hook' && index === 0 ? { status: 302, headers: { location: '/elsewhere' } } : { status: 204 }));
    const { webhook } = await webhookFor(form, target);
    await submit(form);
    await target.waitFor(2);
    const delivery = await eventually(() => deliveryOf(webhook.id), (row) => row?.status === 'succeeded', 'a succeeded delivery');
    expect(target.requests.map((request) => request.path)).toEqual(['/hook', '/hook']);
    const [attempt] = await attemptsOf(delivery!.id);
    expect(attempt).toMatchObject({ status_code: 302, error: 'answered 302: redirects are not followed' });
  });

  it('times out a slow receiver and retries', async () => {
    const form = await createForm(suite.store);
    const target = await receiver((_request, index) => (index === 0 ? { hang: true } : { status: 204 }));
    const { webhook } = await webhookFor(form, target);
    await submit(form);
    await target.waitFor(2);
    const delivery = await eventually(() => deliveryOf(webhook.id), (row) => row?.status === 'succeeded', 'a succeeded delivery');
    const [first, second] = await attemptsOf(delivery!.id);
    expect(first).toMatchObject({ status_code: null, error: 'timed out after 2 s' });
    expect(first!.duration_ms).toBeGreaterThanOrEqual(1_900);
    expect(second).toMatchObject({ status_code: 204, error: null });
  });

  it('keeps the first 64 KiB of an answer in the attempt log', async () => {
    const form = await createForm(suite.store);
    const target = await receiver((_request, index) => (index === 0 ? { status: 500, body: 'x'.repeat(200 * 1024) } : { status: 204 }));
    const { webhook } = await webhookFor(form, target);
    await submit(form);
    const delivery = await eventually(() => deliveryOf(webhook.id), (row) => row?.status === 'succeeded', 'a succeeded delivery');
    const [first] = await attemptsOf(delivery!.id);
    expect(first!.response_body).toHaveLength(64 * 1024);
  });

  it('signs with both secrets while a rotated secret is in its grace period, and with one after', async () => {
    const form = await createForm(suite.store);
    const target = await receiver();
    const { webhook, secret: oldSecret } = await webhookFor(form, target);
    const scope = { workspace: form.workspace, project: form.project, id: webhook.id };
    const rotated = await rotateWebhookSecret(context, adminPrincipal, scope);
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(rotated.secret).not.toBe(oldSecret);
    expect(Date.parse(rotated.webhook.previousSecretExpiresAt!) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);

    await submit(form);
    const [during] = await target.waitFor(1);
    const signature = header(during!, 'x-service-signature');
    expect(parseSignatureHeader(signature).signatures).toHaveLength(2);
    verify(during!.body, signature, oldSecret);
    verify(during!.body, signature, rotated.secret);

    const again = await rotateWebhookSecret(context, adminPrincipal, { ...scope, gracePeriodSeconds: 0 });
    expect(again.webhook.previousSecretExpiresAt).toBeNull();
    await submit(form);
    const [, after] = await target.waitFor(2);
    expect(parseSignatureHeader(header(after!, 'x-service-signature')).signatures).toHaveLength(1);
    verify(after!.body, header(after!, 'x-service-signature'), again.secret);
    expect(() => verify(after!.body, header(after!, 'x-service-signature'), rotated.secret)).toThrow(/signature/);
  });

  it('delivers only the events a webhook’s patterns match', async () => {
    const form = await createForm(suite.store);
    const [spamOnly, deploys, forms, everything] = await Promise.all([receiver(), receiver(), receiver(), receiver()]);
    const hooks = {
      spamOnly: await webhookFor(form, spamOnly, ['form.submission.spam']),
      deploys: await webhookFor(form, deploys, ['deploy.*', 'request.*']),
      forms: await webhookFor(form, forms, ['form.*']),
      everything: await webhookFor(form, everything, ['*']),
    };
    await submit(form);
    await submit(form, { email: 'bot@example.com' }, { 'x-service-honeypot': '1' });
    await eventsDispatched(form, 2);

    const spam = await spamOnly.waitFor(1);
    expect(spam.map((request) => header(request, 'x-service-event'))).toEqual(['form.submission.spam']);
    expect((await forms.waitFor(2)).map((request) => header(request, 'x-service-event')).sort()).toEqual(['form.submission.created', 'form.submission.spam']);
    expect(await everything.waitFor(2)).toHaveLength(2);
    expect(await deliveriesOf(hooks.deploys.webhook.id)).toHaveLength(0);
    expect(await deliveriesOf(hooks.spamOnly.webhook.id)).toHaveLength(1);
    expect(deploys.requests).toHaveLength(0);
  });

  it('sends nothing to a disabled webhook, nor an event older than the webhook', async () => {
    const form = await createForm(suite.store);
    const [disabledTarget, newTarget] = await Promise.all([receiver(), receiver()]);
    const disabled = await webhookFor(form, disabledTarget);
    await disableWebhook(context, adminPrincipal, { workspace: form.workspace, project: form.project, id: disabled.webhook.id });
    await submit(form);
    await eventsDispatched(form, 1);
    expect(await deliveriesOf(disabled.webhook.id)).toHaveLength(0);

    // An event already in the outbox when a webhook is created is not sent to that webhook.
    const old = Date.now() - 60_000;
    await suite.store.db
      .insertInto('events')
      .values({ id: `evt_old${Date.now()}`, project_id: form.projectId, type: 'form.submission.created', payload: '{}', created_at: old, dispatched_at: null })
      .execute();
    const fresh = await webhookFor(form, newTarget);
    suite.store.signals.events.announce();
    await eventsDispatched(form, 2);
    expect(await deliveriesOf(fresh.webhook.id)).toHaveLength(0);
    expect(disabledTarget.requests).toHaveLength(0);
    expect(newTarget.requests).toHaveLength(0);
  });

  it('tests a webhook with a signed sample of any catalog type, sent to that webhook only', async () => {
    const form = await createForm(suite.store);
    const [tested, other] = await Promise.all([receiver(), receiver()]);
    const { webhook, secret } = await webhookFor(form, tested, ['form.*']);
    const bystander = await webhookFor(form, other, ['*']);
    const scope = { workspace: form.workspace, project: form.project, id: webhook.id };

    for (const [index, type] of (['deploy.succeeded', 'request.created', 'form.submission.spam'] as const).entries()) {
      const result = await testWebhook(context, adminPrincipal, { ...scope, event: type });
      expect(result).toMatchObject({ succeeded: true, event: { type }, delivery: { status: 'succeeded', attemptCount: 1, eventType: type }, attempt: { attempt: 1, statusCode: 204 } });
      const request = tested.requests[index]!;
      expect(header(request, 'x-service-event')).toBe(type);
      expect(header(request, 'x-service-event-id')).toBe(result.event.id);
      verify(request.body, header(request, 'x-service-signature'), secret);
      expect(JSON.parse(request.body.toString('utf8'))).toMatchObject({ test: true, id: result.event.id, type, workspace: form.workspace, project: form.project, data: expect.any(Object) });
      // Marked twice, so that no receiver takes a sample for real data (docs/webhooks.md#testing-a-webhook).
      expect(header(request, 'x-service-test')).toBe('1');
    }
    await eventsDispatched(form, 3);
    expect(await deliveriesOf(bystander.webhook.id)).toHaveLength(0);
    expect(other.requests).toHaveLength(0);
  });

  it('retries a failed test like any delivery', async () => {
    const form = await createForm(suite.store);
    const target = await receiver((_request, index) => (index === 0 ? { status: 500 } : { status: 204 }));
    const { webhook } = await webhookFor(form, target);
    const result = await testWebhook(context, adminPrincipal, { workspace: form.workspace, project: form.project, id: webhook.id });
    expect(result).toMatchObject({ succeeded: false, event: { type: 'form.submission.created' }, delivery: { status: 'pending', attemptCount: 1 }, attempt: { statusCode: 500 } });
    await target.waitFor(2);
    await eventually(() => deliveryOf(webhook.id), (row) => row?.status === 'succeeded' && row.attempts === 2, 'the test delivery to be retried');
    // The retry, sent by a worker from the stored event, is marked as a test too.
    expect(target.requests.map((request) => header(request, 'x-service-test'))).toEqual(['1', '1']);
  });
});
