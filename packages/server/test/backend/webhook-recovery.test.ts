import { verify } from '@svc/webhooks';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { adminPrincipal, createForm, createTestEnvironment, eventually, type FormFixture, newEncryptionKey, operationContext, postJson, type ReceivedRequest, request, type Responder, selectBackend, startReceiver, startSvc, type SvcProcess, type TestEnvironment, type WebhookReceiver } from '@svc/testkit';
import { createWebhook } from '../../src/operations/webhooks.js';
import type { OperationContext } from '../../src/operations/context.js';
import type { Store } from '../../src/store/store.js';
import { parseEncryptionKey } from '../../src/secrets/encryption-key.js';

const backend = await selectBackend();

// The timeout stays well above what a loaded test machine needs to answer locally; the lease
// is as short as it may be, so a killed worker's delivery is taken over soon.
const flags = ['--allow-private-targets', '--retry-schedule', '100ms,100ms,100ms,100ms,100ms', '--delivery-timeout', '2s', '--delivery-lease', '3s', '--delivery-poll-interval', '300ms'];

describe.runIf(backend.available)(`webhook delivery across crashes and workers on ${backend.name}`, () => {
  const encryptionKey = newEncryptionKey();
  let environment: TestEnvironment;
  let store: Store;
  let context: OperationContext;

  beforeAll(async () => {
    environment = await createTestEnvironment();
    store = await environment.openStore();
    context = operationContext(store, { dataDir: environment.dataDir, encryptionKey: parseEncryptionKey(encryptionKey), allowPrivateTargets: true });
  });
  afterAll(async () => {
    await store?.close();
    await environment?.cleanup();
  });

  async function serve(extra: string[] = []): Promise<SvcProcess> {
    const server = await startSvc({ args: [...environment.serverArgs, ...flags, ...extra], env: { SVC_ENCRYPTION_KEY: encryptionKey } });
    onTestFinished(() => server.kill());
    return server;
  }

  async function receiver(responder?: Responder): Promise<WebhookReceiver> {
    const started = await startReceiver(responder);
    onTestFinished(() => started.close());
    return started;
  }

  const webhookFor = (form: FormFixture, target: WebhookReceiver) =>
    createWebhook(context, adminPrincipal, { workspace: form.workspace, project: form.project, url: `${target.url}/hook`, events: ['*'] });
  const submit = (server: SvcProcess, form: FormFixture, index: number) => postJson(`${server.url}/api/f/${form.endpointId}`, { index });
  const deliveriesOf = (webhookId: string) => store.db.selectFrom('deliveries').selectAll().where('webhook_id', '=', webhookId).execute();
  const deliveryIdOf = (received: ReceivedRequest) => received.headers['x-service-delivery'] as string;

  it('delivers events left in the outbox by a killed server after the restart', async () => {
    const form = await createForm(store);
    const target = await receiver();
    const { webhook, secret } = await webhookFor(form, target);

    // A web-only instance stores submissions and their events but delivers nothing.
    const web = await serve(['--role', 'web']);
    for (let i = 0; i < 5; i++) expect((await submit(web, form, i)).status).toBe(200);
    await web.kill();
    const waiting = await store.db.selectFrom('events').select('dispatched_at').where('project_id', '=', form.projectId).execute();
    expect(waiting.map((event) => event.dispatched_at)).toEqual([null, null, null, null, null]);

    await serve();
    const received = await target.waitFor(5);
    for (const one of received) verify(one.body, one.headers['x-service-signature'], secret);
    expect(new Set(received.map((one) => one.headers['x-service-event-id'])).size).toBe(5);
    await eventually(() => deliveriesOf(webhook.id), (rows) => rows.length === 5 && rows.every((row) => row.status === 'succeeded'), 'five succeeded deliveries');
  });

  it('sends a delivery again after kill -9 in the middle of its attempt, once the lease has run out', async () => {
    const form = await createForm(store);
    const target = await receiver(() => ({ hang: true }));
    const { webhook } = await webhookFor(form, target);
    const first = await serve();
    expect((await submit(first, form, 0)).status).toBe(200);
    const [inFlight] = await target.waitFor(1);
    await first.kill();

    target.respond(() => ({ status: 204 }));
    await serve();
    const [, again] = await target.waitFor(2);
    expect(again!.headers['x-service-event-id']).toBe(inFlight!.headers['x-service-event-id']);
    expect(deliveryIdOf(again!)).toBe(deliveryIdOf(inFlight!));
    const [delivery] = await eventually(() => deliveriesOf(webhook.id), (rows) => rows[0]?.status === 'succeeded', 'the delivery to succeed');
    // The killed attempt was never recorded: the attempt made after the restart is number 1.
    const attempts = await store.db.selectFrom('delivery_attempts').select(['attempt', 'status_code']).where('delivery_id', '=', delivery!.id).execute();
    expect(attempts).toEqual([{ attempt: 1, status_code: 204 }]);
  });

  it.runIf(backend.name === 'postgres')('shares the queue between two workers on one database, sending each attempt exactly once', async () => {
    const form = await createForm(store, { rateLimit: { max: 1_000, windowSeconds: 60 } });
    const seen = new Map<string, number>();
    // Each delivery fails once, then succeeds: two attempts each, claimed by whichever worker is free.
    const target = await receiver((received) => {
      const id = deliveryIdOf(received);
      const count = (seen.get(id) ?? 0) + 1;
      seen.set(id, count);
      return { status: count === 1 ? 500 : 204 };
    });
    const { webhook } = await webhookFor(form, target);
    // Few request slots each, so neither worker can take the whole queue.
    const all = await serve(['--delivery-concurrency', '4']);
    const worker = await serve(['--role', 'worker', '--delivery-concurrency', '4']);

    const submissions = 60;
    const answers = await Promise.all(Array.from({ length: submissions }, (_, i) => submit(all, form, i)));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    await target.waitFor(submissions * 2, undefined, 30_000);
    const rows = await eventually(() => deliveriesOf(webhook.id), (list) => list.length === submissions && list.every((row) => row.status === 'succeeded'), 'every delivery to succeed', 30_000);

    expect(seen.size).toBe(submissions);
    expect([...seen.values()].every((count) => count === 2)).toBe(true);
    expect(target.requests).toHaveLength(submissions * 2);
    const attempts = await store.db.selectFrom('delivery_attempts').select(['delivery_id', 'attempt']).where('delivery_id', 'in', rows.map((row) => row.id)).execute();
    expect(attempts).toHaveLength(submissions * 2);

    const madeBy = await Promise.all([all, worker].map(async (process) => attemptsCounted((await request(`${process.url}/metrics`)).text)));
    expect(madeBy[0]! + madeBy[1]!).toBe(submissions * 2);
    expect(madeBy[0]).toBeGreaterThan(0);
    expect(madeBy[1]).toBeGreaterThan(0);
  });
});

/** The sum of svc_webhook_attempts_total over its labels. */
function attemptsCounted(metrics: string): number {
  return [...metrics.matchAll(/^svc_webhook_attempts_total\{[^}]*\} (\d+)$/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
}
