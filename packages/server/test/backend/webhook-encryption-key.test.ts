import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPrincipal, createForm, createTestEnvironment, newEncryptionKey, operationContext, selectBackend, startSvc, type TestEnvironment } from '@svc/testkit';
import { createWebhook } from '../../src/operations/webhooks.js';
import type { Store } from '../../src/store/store.js';
import { encryptionKeyFileName, parseEncryptionKey } from '../../src/secrets/encryption-key.js';

const backend = await selectBackend();

describe.runIf(backend.available)(`the encryption key of webhook secrets on ${backend.name}`, () => {
  let environment: TestEnvironment;
  let store: Store;

  beforeAll(async () => {
    environment = await createTestEnvironment();
    store = await environment.openStore();
  });
  afterAll(async () => {
    await store?.close();
    await environment?.cleanup();
  });

  it('stores secrets encrypted, and refuses to start with another key', async () => {
    const key = newEncryptionKey();
    const form = await createForm(store);
    const context = operationContext(store, { dataDir: environment.dataDir, encryptionKey: parseEncryptionKey(key) });
    const { webhook, secret } = await createWebhook(context, adminPrincipal, { workspace: form.workspace, project: form.project, url: 'https://hooks.example.com/svc', events: ['*'] });
    expect(JSON.stringify(webhook)).not.toContain(secret);
    const row = await store.db.selectFrom('webhooks').select('secret').where('id', '=', webhook.id).executeTakeFirstOrThrow();
    expect(row.secret).toMatch(/^enc1\./);
    expect(row.secret).not.toContain(secret.slice('whsec_'.length));

    const wrongKey = await startSvc({ args: environment.serverArgs, env: { SVC_ENCRYPTION_KEY: newEncryptionKey() } }).catch((error: unknown) => error as Error);
    expect(wrongKey).toBeInstanceOf(Error);
    expect((wrongKey as Error).message).toMatch(/exited with 3 before it was ready/);
    expect((wrongKey as Error).message).toMatch(/encrypted with key id [0-9a-f]{12}, but this server's key \(from SVC_ENCRYPTION_KEY\) has id [0-9a-f]{12}/);
    expect((wrongKey as Error).message).toMatch(/every instance that shares the database must use the same key/);

    const right = await startSvc({ args: environment.serverArgs, env: { SVC_ENCRYPTION_KEY: key } });
    expect(await right.stop()).toBe(0);
    // Without SVC_ENCRYPTION_KEY the server makes a key file: another key.
    const noKey = await startSvc({ args: environment.serverArgs, env: { SVC_ENCRYPTION_KEY: '' } }).catch((error: unknown) => error as Error);
    expect((noKey as Error).message).toMatch(/cannot be decrypted: it was encrypted with key id [0-9a-f]{12}, but this server's key \(from .*encryption\.key\)/);
  });

  it('refuses a malformed SVC_ENCRYPTION_KEY as a usage error', async () => {
    const failure = await startSvc({ args: environment.serverArgs, env: { SVC_ENCRYPTION_KEY: 'too-short' } }).catch((error: unknown) => error as Error);
    expect((failure as Error).message).toMatch(/exited with 2 before it was ready/);
    expect((failure as Error).message).toMatch(/SVC_ENCRYPTION_KEY: the encryption key must be base64 of 32 random bytes/);
  });
});

describe.runIf(backend.available)(`the key file on ${backend.name}`, () => {
  it('is created under the data dir with mode 0600 on first start, and another key is refused before any webhook exists', async () => {
    const environment = await createTestEnvironment();
    try {
      const server = await startSvc({ args: environment.serverArgs, env: { SVC_ENCRYPTION_KEY: '' } });
      expect(await server.stop()).toBe(0);
      expect((await stat(join(environment.dataDir, encryptionKeyFileName))).mode & 0o777).toBe(0o600);
      // No secret is stored yet; the canary written by the first start tells the keys apart.
      const other = await startSvc({ args: environment.serverArgs, env: { SVC_ENCRYPTION_KEY: newEncryptionKey() } }).catch((error: unknown) => error as Error);
      expect((other as Error).message).toMatch(/this database was set up with another encryption key: it was encrypted with key id/);
    } finally {
      await environment.cleanup();
    }
  });
});
