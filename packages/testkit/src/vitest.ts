import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { Store } from '@svc/server';
import { launchBrowser } from './browser.js';
import { createProject, startCliTestServer, type CliTestServer } from './cli-test-server.js';
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

/** What a browser suite gets from `useBrowserProject`; read its fields inside tests and hooks. */
export interface BrowserProjectSuite {
  readonly cli: CliTestServer;
  /** The project's directory, with the service.json `svc push` applied. */
  readonly directory: string;
  readonly browser: Browser;
}

/**
 * The shared set-up of a browser suite (`packages/cli/test/backend/*-browser.test.ts`): a
 * CLI test server (with `serverArgs` added), the project `workspace`/`project` with
 * `config` in its service.json, and a Chromium, all closed after the suite. Call inside
 * `describe`; the suite's own hooks run after these set-ups and before these clean-ups.
 */
export function useBrowserProject(workspace: string, project: string, options: { config?: Record<string, unknown>; serverArgs?: readonly string[] } = {}): BrowserProjectSuite {
  const suite = {} as { cli: CliTestServer; directory: string; browser: Browser };
  beforeAll(async () => {
    suite.cli = await startCliTestServer(options.serverArgs);
    suite.directory = await createProject(suite.cli, workspace, project, options.config);
    suite.browser = await launchBrowser();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.cli?.stop();
  });
  return suite;
}
