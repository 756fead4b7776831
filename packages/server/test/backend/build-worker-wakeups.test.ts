// What wakes the build worker (docs/architecture.md, "Builds"): its own signal, announced
// when a build is queued or ends, here and on other instances; never the outbox's, which
// every form post announces. A worker over the real store, on both backends.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newEncryptionKey, operationContext, selectBackend } from '@svc/testkit';
import { useBackendStore } from '@svc/testkit/vitest';
import { defaultBuildSettings } from '../../src/builds/build-settings.js';
import { BuildWorker } from '../../src/builds/build-worker.js';
import { parseEncryptionKey } from '../../src/secrets/encryption-key.js';

const backend = await selectBackend();

describe.runIf(backend.available)(`what wakes the build worker, on ${backend.name}`, () => {
  const suite = useBackendStore();
  let worker: BuildWorker;
  let dataDir: string;
  const failures: string[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'svc-build-wakeups-'));
    // The safety poll far away: only signals wake the worker during the test.
    const context = operationContext(suite.store, { dataDir, encryptionKey: parseEncryptionKey(newEncryptionKey()), builds: { ...defaultBuildSettings, pollIntervalMs: 600_000, sandbox: 'none' } });
    worker = new BuildWorker(context, pino({ level: 'silent' }), (_error, what) => failures.push(what));
    await worker.start();
  });
  afterAll(async () => {
    await worker?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const idle = async (): Promise<void> => {
    for (let waited = 0; worker.claimMode !== 'idle'; waited += 5) {
      if (waited > 10_000) throw new Error(`the build worker stayed ${worker.claimMode}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };

  it('is not woken by new outbox events (a form post\'s), and is by its own signal', async () => {
    await idle();
    for (let index = 0; index < 50; index += 1) {
      suite.store.signals.events.announce();
      expect(worker.claimMode).toBe('idle');
    }
    suite.store.signals.builds.announce();
    expect(worker.claimMode).toBe('claiming');
    await idle();
    expect(failures).toEqual([]);
  });
});
