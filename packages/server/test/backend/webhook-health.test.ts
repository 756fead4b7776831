import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPrincipal, createForm, eventually, newEncryptionKey, operationContext, postJson, selectBackend, startReceiver, type WebhookReceiver } from '@svc/testkit';
import { useBackendSuite } from '@svc/testkit/vitest';
import type { OperationContext } from '../../src/operations/context.js';
import { createWebhook, enableWebhook, getWebhook } from '../../src/operations/webhooks.js';
import { parseEncryptionKey } from '../../src/secrets/encryption-key.js';

const backend = await selectBackend();
const day = 86_400_000;

describe.runIf(backend.available)(`webhook health and automatic disabling on ${backend.name}`, () => {
  const encryptionKey = newEncryptionKey();
  const suite = useBackendSuite({
    args: ['--allow-private-targets', '--retry-schedule', '1h', '--maintenance-interval', '200ms', '--delivery-poll-interval', '300ms'],
    env: { SVC_ENCRYPTION_KEY: encryptionKey },
  });
  let receiver: WebhookReceiver;
  let context: OperationContext;
  /** `/flaky` fails its first request, then succeeds. */
  let flakyCalls = 0;

  beforeAll(async () => {
    receiver = await startReceiver((request) => {
      if (request.path === '/fail') return { status: 500 };
      if (request.path === '/flaky') return (flakyCalls += 1) === 1 ? { status: 503 } : { status: 204 };
      return { status: 204 };
    });
    context = operationContext(suite.store, { dataDir: suite.environment.dataDir, encryptionKey: parseEncryptionKey(encryptionKey), allowPrivateTargets: true });
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it('is failing from the first failed attempt after a success, healthy again after one, and disabled after failing for the whole window', async () => {
    const form = await createForm(suite.store);
    const scope = { workspace: form.workspace, project: form.project };
    const failing = (await createWebhook(context, adminPrincipal, { ...scope, url: `${receiver.url}/fail`, events: ['*'] })).webhook;
    const flaky = (await createWebhook(context, adminPrincipal, { ...scope, url: `${receiver.url}/flaky`, events: ['*'] })).webhook;
    const healthy = (await createWebhook(context, adminPrincipal, { ...scope, url: `${receiver.url}/ok`, events: ['*'] })).webhook;
    expect(healthy.health).toBe('healthy');
    const health = (id: string) => getWebhook(context, adminPrincipal, { ...scope, id });

    await postJson(`${suite.url}/api/f/${form.endpointId}`, { n: 1 });
    const first = await eventually(() => health(failing.id), (webhook) => webhook.health === 'failing', 'the failing webhook marked failing');
    expect(first.failingSince).not.toBeNull();
    await eventually(() => health(flaky.id), (webhook) => webhook.health === 'failing', 'the flaky webhook failing');
    await postJson(`${suite.url}/api/f/${form.endpointId}`, { n: 2 });
    await eventually(() => health(flaky.id), (webhook) => webhook.health === 'healthy', 'the flaky webhook healthy after a success');
    expect((await health(failing.id)).failingSince).toBe(first.failingSince);

    // Failing for six days: past the five-day window, the next maintenance run disables it.
    await suite.store.db.updateTable('webhooks').set({ failing_since: Date.now() - 6 * day }).where('id', '=', failing.id).execute();
    const disabled = await eventually(() => health(failing.id), (webhook) => webhook.health === 'disabled', 'the failing webhook disabled');
    expect(disabled).toMatchObject({ enabled: false, disabledReason: 'every attempt failed for 5 days', failingSince: null });
    expect(await health(healthy.id)).toMatchObject({ enabled: true, health: 'healthy' });
    expect(await health(flaky.id)).toMatchObject({ enabled: true, health: 'healthy' });

    const again = await enableWebhook(context, adminPrincipal, { ...scope, id: failing.id });
    expect(again).toMatchObject({ enabled: true, health: 'healthy', failingSince: null });
  });
});
