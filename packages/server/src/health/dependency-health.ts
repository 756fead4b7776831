import type { Logger } from 'pino';
import { ServiceError } from '@svc/protocol';

/** Every dependency the service reports on: the database, the disk under the data dir, and Redis when configured. */
export type DependencyName = 'database' | 'storage' | 'redis';

/** The `retry-after` of a 503 `unavailable`: about when a client should try again. */
export const unavailableRetryAfterSeconds = 5;

interface State {
  problem: string | null;
  since: number;
}

/**
 * The state of each dependency, told by the health monitor's probes and by failures on the
 * request path, whichever comes first. Logs one line when a dependency goes away and one
 * when it is back, never a line per failed request. `essential` dependencies decide
 * whether a submission can be stored (and so `/healthz`); the others (Redis) are reported.
 */
export class DependencyHealth {
  private readonly states = new Map<DependencyName, State>();

  constructor(
    private readonly logger: Logger,
    names: readonly DependencyName[],
    private readonly essential: ReadonlySet<DependencyName>,
    private readonly now: () => number = Date.now,
  ) {
    for (const name of names) this.states.set(name, { problem: null, since: now() });
  }

  /**
   * Records what a probe or a failure found: null when the dependency works, else why not.
   * `probeStartedAt`: a probe's all-clear does not undo a failure reported after the probe
   * began (it may have looked before the failure happened).
   */
  set(name: DependencyName, problem: string | null, probeStartedAt?: number): void {
    const state = this.states.get(name);
    if (!state) return;
    const wasOk = state.problem === null;
    const now = this.now();
    if (problem === null && !wasOk && probeStartedAt !== undefined && state.since >= probeStartedAt) return;
    if (wasOk && problem !== null) {
      this.logger.error({ dependency: name, problem }, `${name} unavailable: ${problem}`);
      this.states.set(name, { problem, since: now });
    } else if (!wasOk && problem === null) {
      this.logger.info({ dependency: name, downSeconds: Math.round((now - state.since) / 100) / 10 }, `${name} is back`);
      this.states.set(name, { problem: null, since: now });
    } else if (problem !== null) {
      state.problem = problem;
    }
  }

  isOk(name: DependencyName): boolean {
    return (this.states.get(name)?.problem ?? null) === null;
  }

  /** Whether a submission can be stored now: every essential dependency works. */
  get canStore(): boolean {
    for (const name of this.essential) if (!this.isOk(name)) return false;
    return true;
  }

  /** `/healthz`'s body: each dependency `ok` or `unavailable` (the why is in the log, not on a public page). */
  report(): { ok: boolean; checks: Record<string, 'ok' | 'unavailable'> } {
    const checks: Record<string, 'ok' | 'unavailable'> = {};
    for (const [name, state] of this.states) checks[name] = state.problem === null ? 'ok' : 'unavailable';
    return { ok: this.canStore, checks };
  }
}

/** The answer to a request that failed because `dependency` did: 503 with `retry-after`. */
export function unavailable(dependency: DependencyName, reason: string, cause: unknown): ServiceError {
  return new ServiceError('unavailable', `the ${dependency} is unavailable (${reason}); try again shortly`, { retryAfter: unavailableRetryAfterSeconds }, { cause });
}

/**
 * A function that turns a dependency's failure into the 503 it is answered with, telling
 * `health` on the way; null for any other failure.
 */
export function unavailableAnswers(store: { dependencyFailure(error: unknown): { dependency: DependencyName; reason: string } | null }, health: DependencyHealth): (error: unknown) => ServiceError | null {
  return (error) => {
    if (error instanceof ServiceError) return null;
    const failure = store.dependencyFailure(error);
    if (!failure) return null;
    health.set(failure.dependency, failure.reason);
    return unavailable(failure.dependency, failure.reason, error);
  };
}
