import { ServiceError } from '@svc/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPrincipal, createForm, eventually, newEncryptionKey, operationContext, postJson, selectBackend, startReceiver, type WebhookReceiver } from '@svc/testkit';
import { useBackendSuite } from '@svc/testkit/vitest';
import { createWebhook } from '../../src/operations/webhooks.js';
import type { OperationContext } from '../../src/operations/context.js';
import { parseEncryptionKey } from '../../src/secrets/encryption-key.js';

const backend = await selectBackend();

describe.runIf(backend.available)(`the SSRF guard on ${backend.name}`, () => {
  const encryptionKey = newEncryptionKey();
  const suite = useBackendSuite({
    args: ['--retry-schedule', '100ms', '--delivery-timeout', '500ms', '--delivery-lease', '2s', '--delivery-poll-interval', '300ms'],
    env: { SVC_ENCRYPTION_KEY: encryptionKey },
  });
  let receiver: WebhookReceiver;
  /** Like the server: private targets not allowed. */
  let guarded: OperationContext;
  /** As if the webhook had been made while private targets were allowed. */
  let lenient: OperationContext;

  beforeAll(async () => {
    receiver = await startReceiver();
    const key = parseEncryptionKey(encryptionKey);
    guarded = operationContext(suite.store, { dataDir: suite.environment.dataDir, encryptionKey: key, allowPrivateTargets: false });
    lenient = operationContext(suite.store, { dataDir: suite.environment.dataDir, encryptionKey: key, allowPrivateTargets: true });
  });
  afterAll(async () => {
    await receiver?.close();
  });

  it.each([
    ['http://127.0.0.1:9/hook', /loopback address \(127\.0\.0\.1\)/],
    ['http://10.0.0.1/hook', /private address \(10\.0\.0\.1\)/],
    ['http://169.254.169.254/latest/meta-data/', /cloud metadata address/],
    ['http://[::1]:9/hook', /loopback address \(::1\)/],
    ['http://[::ffff:127.0.0.1]:9/hook', /loopback address/],
    ['http://100.64.0.1/hook', /carrier-grade NAT/],
  ])('refuses to create a webhook for the IP literal %s', async (url, problem) => {
    const form = await createForm(suite.store);
    const failure = await createWebhook(guarded, adminPrincipal, { workspace: form.workspace, project: form.project, url, events: ['*'] }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ServiceError);
    expect(failure).toMatchObject({ code: 'validation_failed', details: { errors: { url: expect.stringMatching(problem) } } });
    // A newcomer testing against a local receiver is told how to allow it.
    expect((failure as ServiceError).details).toMatchObject({ errors: { url: expect.stringContaining('--allow-private-targets (or SVC_ALLOW_PRIVATE_TARGETS=true)') } });
  });

  it('refuses to connect to private targets at delivery time, and retries them like any failure', async () => {
    const form = await createForm(suite.store);
    const targets = {
      loopback: { url: `${receiver.url}/hook`, context: lenient, error: /^refused: 127\.0\.0\.1 is a loopback address/ },
      private: { url: 'http://10.0.0.1:9/hook', context: lenient, error: /^refused: 10\.0\.0\.1 is a private address/ },
      metadata: { url: 'http://169.254.169.254/latest/meta-data/', context: lenient, error: /^refused: 169\.254\.169\.254 is a cloud metadata address/ },
      ipv6: { url: 'http://[::1]:9/hook', context: lenient, error: /^refused: ::1 is a loopback address/ },
      // A host name passes creation; it is refused once it resolves to a loopback address.
      hostname: { url: `http://localhost:${receiver.port}/hook`, context: guarded, error: /^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/ },
    };
    const ids: Record<string, string> = {};
    for (const [name, target] of Object.entries(targets)) {
      const { webhook } = await createWebhook(target.context, adminPrincipal, { workspace: form.workspace, project: form.project, url: target.url, events: ['*'] });
      ids[name] = webhook.id;
    }
    expect((await postJson(`${suite.url}/api/f/${form.endpointId}`, { a: 1 })).status).toBe(200);

    for (const [name, target] of Object.entries(targets)) {
      const delivery = await eventually(
        () => suite.store.db.selectFrom('deliveries').selectAll().where('webhook_id', '=', ids[name]!).executeTakeFirst(),
        (row) => row?.status === 'failed',
        `the ${name} delivery to fail`,
      );
      expect(delivery!.attempts, name).toBe(2);
      const attempts = await suite.store.db.selectFrom('delivery_attempts').selectAll().where('delivery_id', '=', delivery!.id).execute();
      for (const attempt of attempts) {
        expect(attempt.status_code, name).toBeNull();
        expect(attempt.error, name).toMatch(target.error);
        expect(attempt.error, name).toMatch(/private targets are not allowed: start `svc serve` with --allow-private-targets \(or SVC_ALLOW_PRIVATE_TARGETS=true\)/);
      }
    }
    expect(receiver.requests).toHaveLength(0);
  });
});
