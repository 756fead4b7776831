import type { Logger } from 'pino';
import { failStaleDeploys } from '../operations/deploys.js';
import type { OperationContext } from '../operations/context.js';

/**
 * Marks uploads that stopped making progress failed (docs/hosting.md): at start (a server
 * killed mid-upload leaves its deploy `uploading`) and then every half deploy timeout.
 */
export function watchDeploys(context: OperationContext, logger: Logger, reportFailure: (error: unknown, what: string) => void): { stop(): void; check(): Promise<void> } {
  const check = async (): Promise<void> => {
    try {
      const failed = await failStaleDeploys(context);
      if (failed > 0) logger.warn({ failed }, `marked ${failed} stalled ${failed === 1 ? 'deploy' : 'deploys'} failed: the upload stopped before it was finished`);
    } catch (error) {
      reportFailure(error, 'could not check for stalled deploys');
    }
  };
  const every = Math.min(60_000, Math.max(1_000, Math.floor(context.options.deployTimeoutMs / 2)));
  const timer = setInterval(() => void check(), every);
  timer.unref();
  return { stop: () => clearInterval(timer), check };
}
