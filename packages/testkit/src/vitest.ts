import { afterAll, beforeAll } from 'vitest';
import type { Store } from '@svc/server';
import { createTestEnvironment, type TestEnvironment } from './selection.js';
import { startSvc, type StartOptions, type SvcProcess } from './svc-process.js';

/** What a store-only backend suite gets from `useBackendStore`. */
export interface BackendStoreSuite {
  readonly environment: TestEnvironment;
  /** A store on the suite's fresh database, migrated. */
  readonly store: Store;
}

/** What a backend suite gets from `useBackendSuite`; read its fields inside tests and hooks. */
export interface BackendSuite extends BackendStoreSuite {
  readonly server: SvcProcess;
  readonly url: string;
}

/**
 * A fresh environment of the selected backend and a store on it, closed and removed after
 * the suite: for suites that call operations and queries without a server. Call inside
 * `describe`.
 */
export function useBackendStore(): BackendStoreSuite {
  const suite = {} as { environment: TestEnvironment; store: Store };
  beforeAll(async () => {
    suite.environment = await createTestEnvironment();
    suite.store = await suite.environment.openStore();
  });
  afterAll(async () => {
    await suite.store?.close();
    await suite.environment?.cleanup();
  });
  return suite;
}

/**
 * The shared set-up of a backend suite (`packages/*\/test/backend`): `useBackendStore` and
 * a real `svc serve` on the same database, stopped after the suite (it must exit 0). Call
 * inside `describe`.
 */
export function useBackendSuite(options: { args?: readonly string[]; env?: Readonly<Record<string, string>> } = {}): BackendSuite {
  const base = useBackendStore();
  const suite = {
    get environment() {
      return base.environment;
    },
    get store() {
      return base.store;
    },
  } as BackendSuite & { server: SvcProcess; url: string };
  beforeAll(async () => {
    const start: StartOptions = { args: [...base.environment.serverArgs, ...(options.args ?? [])], ...(options.env ? { env: options.env } : {}) };
    suite.server = await startSvc(start);
    suite.url = suite.server.url;
  });
  afterAll(async () => {
    const code = await suite.server?.stop();
    if (code !== undefined && code !== 0) throw new Error(`svc serve exited with ${code}\n${suite.server.stderr()}`);
  });
  return suite;
}
