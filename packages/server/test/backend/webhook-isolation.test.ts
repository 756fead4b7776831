import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPrincipal, createForm, newEncryptionKey, operationContext, postJson, selectBackend, startReceiver, type WebhookReceiver } from '@svc/testkit';
import { useBackendSuite } from '@svc/testkit/vitest';
import { createWebhook } from '../../src/operations/webhooks.js';
import { parseEncryptionKey } from '../../src/secrets/encryption-key.js';

const backend = await selectBackend();

/**
 * A server with four request slots and attempts that may take 20 s (far longer than the
 * healthy receiver's deliveries need on any machine), a receiver that never answers and one
 * that answers at once.
 */
function useHangingBeside(shareArgs: readonly string[]) {
  const encryptionKey = newEncryptionKey();
  const suite = useBackendSuite({
    args: ['--allow-private-targets', '--delivery-concurrency', '4', ...shareArgs, '--delivery-timeout', '20s', '--delivery-lease', '25s', '--delivery-poll-interval', '300ms'],
    env: { SVC_ENCRYPTION_KEY: encryptionKey },
  });
  const receivers = {} as { hanging: WebhookReceiver; healthy: WebhookReceiver };
  beforeAll(async () => {
    receivers.hanging = await startReceiver(() => ({ hang: true }));
    receivers.healthy = await startReceiver();
  });
  afterAll(async () => {
    await receivers.hanging?.close();
    await receivers.healthy?.close();
  });
  const context = () => operationContext(suite.store, { dataDir: suite.environment.dataDir, encryptionKey: parseEncryptionKey(encryptionKey), allowPrivateTargets: true });
  return { suite, receivers, context };
}

describe.runIf(backend.available)(`a hanging receiver beside a healthy one on ${backend.name}`, () => {
  // Four request slots, two of them at most for one webhook.
  const { suite, receivers, context } = useHangingBeside(['--webhook-concurrency', '2']);

  it('delivers every event to the healthy receiver while the hanging one holds no more than its share of the slots', async () => {
    const { hanging, healthy } = receivers;
    const form = await createForm(suite.store);
    const scope = { workspace: form.workspace, project: form.project, events: ['form.*'] };
    await createWebhook(context(), adminPrincipal, { ...scope, url: `${hanging.url}/hook` });
    await createWebhook(context(), adminPrincipal, { ...scope, url: `${healthy.url}/hook` });
    for (let n = 0; n < 12; n++) expect((await postJson(`${suite.url}/api/f/${form.endpointId}`, { n })).status).toBe(200);

    await healthy.waitFor(12, undefined, 15_000);
    // Every hanging request is still open: the hanging receiver got only as many as its share.
    expect(hanging.requests.length).toBeLessThanOrEqual(2);
    expect(hanging.requests.length).toBeGreaterThan(0);
  });
});

describe.runIf(backend.available)(`a project of hanging receivers beside another project on ${backend.name}`, () => {
  // Four request slots; one webhook could take all four, one project only two.
  const { suite, receivers, context } = useHangingBeside(['--webhook-concurrency', '4', '--project-concurrency', '2']);

  it("delivers the other project's events while the first one's receivers hang, holding no more than the project's share", async () => {
    const { hanging, healthy } = receivers;
    const slow = await createForm(suite.store);
    const other = await createForm(suite.store);
    for (let n = 0; n < 3; n++) {
      await createWebhook(context(), adminPrincipal, { workspace: slow.workspace, project: slow.project, events: ['form.*'], url: `${hanging.url}/hook-${n}` });
    }
    await createWebhook(context(), adminPrincipal, { workspace: other.workspace, project: other.project, events: ['form.*'], url: `${healthy.url}/hook` });
    for (let n = 0; n < 6; n++) expect((await postJson(`${suite.url}/api/f/${slow.endpointId}`, { n })).status).toBe(200);
    await hanging.waitFor(2, undefined, 15_000);
    for (let n = 0; n < 4; n++) expect((await postJson(`${suite.url}/api/f/${other.endpointId}`, { n })).status).toBe(200);

    await healthy.waitFor(4, undefined, 15_000);
    // Every hanging request is still open, and there are only the project's share of them.
    expect(hanging.requests.length).toBe(2);
  });
});
