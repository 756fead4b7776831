import type { Logger } from 'pino';
import { sessionIdleMs } from './settings/session/session-store.js';
import { deleteExpiredIdempotencyKeys } from './store/queries/idempotency.js';
import { deleteExpiredRateLimits } from './store/queries/rate-limits.js';
import { deleteExpiredSessions } from './store/queries/sessions.js';
import type { Store } from './store/store.js';

/**
 * Periodic clean-up: idempotency keys past their window, expired rate-limit snapshots, and
 * settings-area sessions and sign-in links that can no longer be used.
 * Runs in every process (the deletes are idempotent) and never on the request path.
 */
export function startMaintenance(store: Store, options: { idempotencyWindowMs: number; intervalMs: number; logger: Logger }): { stop(): void } {
  const run = async (): Promise<void> => {
    const now = Date.now();
    await deleteExpiredIdempotencyKeys(store.db, now - options.idempotencyWindowMs);
    await deleteExpiredRateLimits(store.db, now);
    await deleteExpiredSessions(store.db, now, now - sessionIdleMs);
  };
  const timer = setInterval(() => {
    run().catch((error: unknown) => options.logger.warn({ err: error }, 'maintenance failed; will retry'));
  }, options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
