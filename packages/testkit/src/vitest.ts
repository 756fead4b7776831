import { afterAll, beforeAll } from 'vitest';
import type { Store } from '@svc/server';
import { createTestEnvironment, type TestEnvironment } from './selection.js';
import { startSvc, type StartOptions, type SvcProcess } from './svc-process.js';

/** What a backend suite gets from `useBackendSuite`; read its fields inside tests and hooks. */
export interface BackendSuite {
  readonly environment: TestEnvironment;
  readonly server: SvcProcess;
  /** The store the server uses, opened in the test process (fixtures, checks). */
  readonly store: Store;
  readonly url: string;
}

/**
 * The shared set-up of a backend suite (`packages/*\/test/backend`): a fresh environment of
 * the selected backend, its store, and a real `svc serve` on it, all torn down after the
 * suite (the server must exit 0). Call inside `describe`.
 */
export function useBackendSuite(options: { args?: readonly string[]; env?: Readonly<Record<string, string>> } = {}): BackendSuite {
  const suite = {} as { environment: TestEnvironment; server: SvcProcess; store: Store; url: string };
  beforeAll(async () => {
    suite.environment = await createTestEnvironment();
    suite.store = await suite.environment.openStore();
    const start: StartOptions = { args: [...suite.environment.serverArgs, ...(options.args ?? [])], ...(options.env ? { env: options.env } : {}) };
    suite.server = await startSvc(start);
    suite.url = suite.server.url;
  });
  afterAll(async () => {
    const code = await suite.server?.stop();
    await suite.store?.close();
    await suite.environment?.cleanup();
    if (code !== undefined && code !== 0) throw new Error(`svc serve exited with ${code}\n${suite.server.stderr()}`);
  });
  return suite;
}
