import type { Logger } from 'pino';
import type { Store } from './store/store.js';

/**
 * Periodic clean-up: idempotency keys past their window and expired rate-limit snapshots.
 * Runs in every process (the deletes are idempotent) and never on the request path.
 */
export function startMaintenance(store: Store, options: { idempotencyWindowMs: number; intervalMs: number; logger: Logger }): { stop(): void } {
  const run = async (): Promise<void> => {
    const now = Date.now();
    await store.db.deleteFrom('idempotency_keys').where('created_at', '<', now - options.idempotencyWindowMs).execute();
    await store.db.deleteFrom('rate_limits').where('expires_at', '<=', now).execute();
  };
  const timer = setInterval(() => {
    run().catch((error: unknown) => options.logger.warn({ err: error }, 'maintenance failed; will retry'));
  }, options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
