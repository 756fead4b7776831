import { createBackend, startReceiver, startSvc, type Backend, type BackendName, type ReceiverOptions, type Responder, type StartOptions, type SvcProcess, type WebhookReceiver } from '@svc/testkit';
import type { Store } from '@svc/server';
import { ProblemList, silentLog, type Log, type ScenarioResult } from './report.js';

/** What every scenario is given: the backend to run on, and where to say what it does. */
export interface ScenarioOptions {
  readonly backend: BackendName;
  readonly log?: Log;
}

/** What a scenario runs on: `svc serve`'s flags for it, and its store. A testkit backend is one. */
export interface ScenarioBackend {
  readonly backend: BackendName;
  readonly dataDir: string;
  readonly serverArgs: readonly string[];
  openStore(): Promise<Store>;
}

/** One step of tearing a scenario down (close, stop, remove). */
export type Cleanup = () => unknown;

export type Facts = Record<string, number | string>;

export interface ScenarioSetup<B extends ScenarioBackend> {
  /** The scenario's name in its result. */
  readonly name: string;
  readonly backend: BackendName;
  /**
   * A backend the scenario makes itself (its own cluster, a tmpfs), handing each step of its
   * clean-up to `defer`. Without it, a fresh testkit backend (`createBackend`).
   */
  readonly make?: (defer: (cleanup: Cleanup) => void) => Promise<B>;
  /** Servers sharing the backend: the result names it `postgres × 2`. */
  readonly instances?: number;
  readonly log?: Log;
  /** Distinct problems listed before the rest are only counted (see ProblemList). */
  readonly problemGroups?: number;
  /**
   * `throw` (the default): an error thrown by the scenario fails the whole run. `report`: it
   * is a problem of the result, which keeps the facts found until then; for scenarios that
   * break a dependency on purpose, where an unexpected failure is a finding.
   */
  readonly errors?: 'throw' | 'report';
}

/** What a scenario's body works with (its functions may be taken apart); all it starts here is torn down after it. */
export interface ScenarioRun<B extends ScenarioBackend> {
  readonly backend: B;
  /** The backend's store, open from before the body starts (unless the body closed it). */
  readonly store: Store;
  readonly log: Log;
  readonly problems: ProblemList;
  /** Facts noted as they are found; what the body returns is added to them. */
  readonly facts: Facts;
  /** `svc serve` with the backend's flags and then `options.args`; killed at the end if it still runs. */
  readonly startServer: (options?: StartOptions) => Promise<SvcProcess>;
  /** `count` servers at once, alike. */
  readonly startServers: (count: number, options?: StartOptions) => Promise<SvcProcess[]>;
  /**
   * SIGTERM to every server still running that the body has not stopped or killed itself;
   * an exit other than 0 is a problem.
   */
  readonly stopServers: () => Promise<void>;
  /** A webhook receiver, closed at the end. */
  readonly startReceiver: (options?: ReceiverOptions | Responder) => Promise<WebhookReceiver>;
  /** Closes the store (for a body that needs the server alone on the data). */
  readonly closeStore: () => Promise<void>;
  /** Opens the store again after `closeStore`. */
  readonly reopenStore: () => Promise<Store>;
  /** One more step for the end; steps run last first, each even when another failed. */
  readonly defer: (cleanup: Cleanup) => void;
}

/** Thrown while making a backend, when the scenario cannot run here: its result says why, and passes. */
export class ScenarioSkipped extends Error {
  /** `reason` goes into the facts; `message` is logged. */
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Runs one scenario: makes its backend and opens its store, runs `body`, and whatever
 * happens tears down what was started, last first (servers killed, receivers closed,
 * store closed, backend removed). The result carries the body's facts and problems and
 * how long it took.
 */
export async function withScenario<B extends ScenarioBackend = Backend>(setup: ScenarioSetup<B>, body: (run: ScenarioRun<B>) => Promise<Facts | void>): Promise<ScenarioResult> {
  const started = performance.now();
  const log = setup.log ?? silentLog;
  const problems = new ProblemList(setup.problemGroups);
  const facts: Facts = {};
  const cleanups: Cleanup[] = [];
  const defer = (cleanup: Cleanup): void => void cleanups.push(cleanup);
  let durationMs = 0;
  try {
    try {
      // Without `make`, B is its default: the testkit's Backend.
      const make = setup.make ?? (freshBackend(setup.backend) as unknown as NonNullable<ScenarioSetup<B>['make']>);
      const backend = await make(defer);
      const run = await prepare(backend, log, problems, facts, defer);
      Object.assign(facts, await body(run));
    } catch (error) {
      if (error instanceof ScenarioSkipped) {
        log(error.message);
        facts['skipped'] = error.reason;
      } else if (setup.errors === 'report') {
        problems.add(`the scenario failed: ${(error as Error).stack ?? String(error)}`);
      } else {
        throw error;
      }
    }
    durationMs = performance.now() - started;
  } finally {
    await unwind(cleanups);
  }
  const backend = setup.instances === undefined ? setup.backend : `${setup.backend} × ${setup.instances}`;
  return { scenario: setup.name, backend, durationMs, facts, problems: problems.list() };
}

/** Makes a fresh testkit backend (`createBackend`), removed at the end: the default of `make`. */
export function freshBackend(name: BackendName, label?: string): (defer: (cleanup: Cleanup) => void) => Promise<Backend> {
  return async (defer) => {
    const backend = await createBackend(name, label);
    defer(() => backend.cleanup());
    return backend;
  };
}

async function prepare<B extends ScenarioBackend>(backend: B, log: Log, problems: ProblemList, facts: Facts, defer: (cleanup: Cleanup) => void): Promise<ScenarioRun<B>> {
  let store: Store | null = await backend.openStore();
  // A store whose database was stopped under it may fail to close: not what a scenario checks.
  defer(() => store?.close().catch(() => undefined));
  /** Servers started here that the body has not stopped or killed itself. */
  const running = new Set<SvcProcess>();
  let serversStarted = 0;

  const startServer = async (options: StartOptions = {}): Promise<SvcProcess> => {
    const server = await startSvc({ ...options, args: [...backend.serverArgs, ...(options.args ?? [])] });
    serversStarted += 1;
    defer(() => server.kill());
    const tracked: SvcProcess = {
      ...server,
      stop: () => {
        running.delete(tracked);
        return server.stop();
      },
      kill: () => {
        running.delete(tracked);
        return server.kill();
      },
    };
    running.add(tracked);
    return tracked;
  };

  return {
    backend,
    get store(): Store {
      if (store === null) throw new Error('the store is closed (reopenStore opens it again)');
      return store;
    },
    log,
    problems,
    facts,
    startServer,
    startServers: (count, options) => Promise.all(Array.from({ length: count }, () => startServer(options))),
    stopServers: async () => {
      for (const server of [...running]) {
        const exit = await server.stop();
        if (exit !== 0) problems.add(`${serversStarted > 1 ? 'a' : 'the'} server exited with ${exit} on SIGTERM`);
      }
    },
    startReceiver: async (options) => {
      const receiver = await startReceiver(options);
      defer(() => receiver.close());
      return receiver;
    },
    closeStore: async () => {
      const open = store;
      store = null;
      await open?.close();
    },
    reopenStore: async () => {
      store ??= await backend.openStore();
      return store;
    },
    defer,
  };
}

/** Runs every step, last first; a step that fails does not keep the others from running. */
async function unwind(cleanups: Cleanup[]): Promise<void> {
  const failures: unknown[] = [];
  for (const cleanup of cleanups.reverse()) {
    try {
      await cleanup();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
}
