import { beforeAll, describe, expect, it } from 'vitest';
import { useBackendSuite } from '@svc/testkit/vitest';
import { adminPrincipal, createForm, newEncryptionKey, operationContext, postJson, selectBackend, startReceiver } from '@svc/testkit';
import { createWebhook } from '../../src/operations/webhooks.js';
import type { OperationContext } from '../../src/operations/context.js';
import { parseEncryptionKey } from '../../src/secrets/encryption-key.js';

const backend = await selectBackend();

// The safety poll stays at its default (30 s): a backlog must drain through the worker's own
// claims as attempts end, never by waiting for the poll.
describe.runIf(backend.available)(`a webhook with a backlog larger than its share on ${backend.name}`, () => {
  const encryptionKey = newEncryptionKey();
  const suite = useBackendSuite({ args: ['--allow-private-targets', '--webhook-concurrency', '2', '--rate-limit', '100000/1h'], env: { SVC_ENCRYPTION_KEY: encryptionKey } });
  let context: OperationContext;

  beforeAll(() => {
    context = operationContext(suite.store, { dataDir: suite.environment.dataDir, encryptionKey: parseEncryptionKey(encryptionKey), allowPrivateTargets: true });
  });

  it('gets every delivery, once, as its attempts end (its share in flight is tested in webhook-isolation)', async () => {
    const receiver = await startReceiver();
    try {
      const form = await createForm(suite.store);
      await createWebhook(context, adminPrincipal, { workspace: form.workspace, project: form.project, url: `${receiver.url}/hook`, events: ['*'] });
      const count = 120;
      for (let index = 0; index < count; index += 1) expect((await postJson(`${suite.server.url}/api/f/${form.endpointId}`, { index })).status).toBe(200);
      await receiver.waitFor(count);
      expect(receiver.eventIds.size).toBe(count);
      expect(receiver.requests).toHaveLength(count);
    } finally {
      await receiver.close();
    }
  });
});
