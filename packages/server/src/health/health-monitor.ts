import type { Store } from '../store/store.js';
import type { StoreDependency } from '../store/dependency-failure.js';
import type { DependencyHealth } from './dependency-health.js';

export interface HealthMonitorOptions {
  readonly store: Store;
  readonly health: DependencyHealth;
  /** How often the store's dependencies are probed. */
  readonly intervalMs: number;
  /** A probe with no answer by then counts as a failure (so `/healthz` never waits on one). */
  readonly probeTimeoutMs: number;
}

export interface HealthMonitor {
  /** Probes every dependency once now (the first call is awaited before the server listens). */
  probe(): Promise<void>;
  stop(): void;
}

/**
 * Probes the database and the storage every `intervalMs`, each bounded by
 * `probeTimeoutMs`, and tells `health`. While a dependency is down its probe also writes
 * (a small synced file, say), so that it is back only when it really takes writes again.
 */
export function startHealthMonitor(options: HealthMonitorOptions): HealthMonitor {
  const { store, health } = options;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;

  const probeOne = async (name: StoreDependency): Promise<void> => {
    const startedAt = Date.now();
    const problem = await bounded(store.health[name](!health.isOk(name)), options.probeTimeoutMs).catch(
      (error: unknown) => store.dependencyFailure(error)?.reason ?? `the check failed: ${(error as Error).message}`,
    );
    if (!stopped) health.set(name, problem, startedAt);
  };
  const probe = async (): Promise<void> => {
    await Promise.all([probeOne('database'), probeOne('storage')]);
  };
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => void probe().finally(schedule), options.intervalMs);
    timer.unref();
  };
  schedule();
  return {
    probe,
    stop: () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}

/** `work`'s answer, or a rejection once `ms` passed without one (the work itself goes on). */
function bounded<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
