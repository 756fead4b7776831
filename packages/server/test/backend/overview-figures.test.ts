import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPrincipal, createForm, eventually, newEncryptionKey, operationContext, postJson, selectBackend, startReceiver, type FormFixture, type WebhookReceiver } from '@svc/testkit';
import { useBackendSuite } from '@svc/testkit/vitest';
import { activityTotals, projectActivity } from '../../src/operations/activity.js';
import type { OperationContext } from '../../src/operations/context.js';
import { listWebhookStatuses } from '../../src/operations/webhook-health.js';
import { createWebhook, listWebhooks, testWebhook } from '../../src/operations/webhooks.js';
import { newId } from '../../src/lib/ids.js';
import { insertDirectEvent } from '../../src/store/queries/dispatch-events.js';
import { recordAttempts } from '../../src/store/queries/record-attempts.js';
import { parseEncryptionKey } from '../../src/secrets/encryption-key.js';

const backend = await selectBackend();

/** The overview's 24-hour figures (docs/settings.md): what they count, and what they leave out. */
describe.runIf(backend.available)(`the overview's figures on ${backend.name}`, () => {
  const encryptionKey = newEncryptionKey();
  // Failed attempts are retried an hour later: within the test, failing deliveries stay pending.
  const suite = useBackendSuite({ args: ['--allow-private-targets', '--retry-schedule', '1h', '--delivery-poll-interval', '200ms'], env: { SVC_ENCRYPTION_KEY: encryptionKey } });
  let receiver: WebhookReceiver;
  let context: OperationContext;
  let form: FormFixture;
  let failingId: string;

  beforeAll(async () => {
    receiver = await startReceiver((request) => (request.path === '/fail' ? { status: 500 } : { status: 204 }));
    context = operationContext(suite.store, { dataDir: suite.environment.dataDir, encryptionKey: parseEncryptionKey(encryptionKey), allowPrivateTargets: true });
    form = await createForm(suite.store);
    const scope = { workspace: form.workspace, project: form.project };
    failingId = (await createWebhook(context, adminPrincipal, { ...scope, url: `${receiver.url}/fail`, events: ['*'] })).webhook.id;
    await createWebhook(context, adminPrincipal, { ...scope, url: `${receiver.url}/ok`, events: ['*'] });
  });
  afterAll(async () => {
    await receiver?.close();
  });

  const scope = () => ({ workspace: form.workspace, project: form.project });
  const totals = async () => activityTotals(await projectActivity(context, adminPrincipal, scope()));

  it('counts every failed attempt, those still to be retried too, and says which webhook is failing', async () => {
    await postJson(`${suite.url}/api/f/${form.endpointId}`, { n: 1 });
    await postJson(`${suite.url}/api/f/${form.endpointId}`, { n: 2 });
    const figures = await eventually(totals, (sums) => sums.delivered === 2 && sums.failedAttempts === 2, 'both submissions delivered to one webhook and failed at the other');
    expect(figures).toEqual({ submissions: 2, spam: 0, delivered: 2, failedAttempts: 2 });
    // No delivery has failed for good yet: each is pending its retry.
    const pending = await suite.store.db.selectFrom('deliveries').select('status').where('webhook_id', '=', failingId).execute();
    expect(pending.map((row) => row.status)).toEqual(['pending', 'pending']);
    const statuses = await listWebhookStatuses(context, adminPrincipal, scope());
    expect(statuses.filter((status) => status.health === 'failing').map((status) => status.webhook.id)).toEqual([failingId]);
  });

  it('leaves out a test send (its event marked a test) and counts the same attempt of a real event, whatever its payload says', async () => {
    const before = await totals();
    const failedAttempt = async (payload: Record<string, unknown>, test: boolean) => {
      const now = Date.now();
      const event = { id: newId('evt', now), projectId: form.projectId, type: 'form.submission.created', now };
      const delivery = { id: newId('dlv', now), webhookId: failingId, lease: { owner: 'test/figures', expiresAt: now + 60_000 } };
      await suite.store.transaction((trx) => insertDirectEvent(trx, { ...event, payload: JSON.stringify({ id: event.id, type: event.type, ...payload }) }, delivery, { test }));
      await suite.store.transaction((trx) =>
        recordAttempts(
          trx,
          [
            {
              deliveryId: delivery.id,
              webhookId: failingId,
              leaseOwner: delivery.lease.owner,
              attemptsBefore: 0,
              startedAt: now,
              durationMs: 3,
              statusCode: 500,
              error: null,
              responseBody: 'nope',
              requestHeaders: null,
              status: 'failed',
              nextAttemptAt: null,
              lastError: 'answered 500',
              disableWebhook: null,
            },
          ],
          now,
        ),
      );
    };
    await failedAttempt({ test: true, data: { note: 'a sample' } }, true);
    expect(await totals()).toEqual(before);
    // The mark is the event's, not its payload's: a real event's data may say anything.
    await failedAttempt({ test: true, data: { test: true } }, false);
    expect(await totals()).toEqual({ ...before, failedAttempts: before.failedAttempts + 1 });
  });

  it('counts no send of svc webhooks test, delivered or failed', async () => {
    const before = await totals();
    const okId = (await listWebhooks(context, adminPrincipal, scope())).find((webhook) => webhook.url.endsWith('/ok'))!.id;
    expect(await testWebhook(context, adminPrincipal, { ...scope(), id: okId })).toMatchObject({ succeeded: true });
    expect(await testWebhook(context, adminPrincipal, { ...scope(), id: failingId, event: 'deploy.failed' })).toMatchObject({ succeeded: false });
    expect(await totals()).toEqual(before);
  });
});
