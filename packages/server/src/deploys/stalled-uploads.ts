import type { Logger } from 'pino';
import { staleUploads } from '../store/queries/deploys.js';
import { findProjectById, findWorkspaceById } from '../store/queries/projects.js';
import type { Store } from '../store/store.js';
import { failDeploy, type DeploySiting } from './deploy-steps.js';

/** What the watch of stalled uploads needs: the store, where sites answer, the deploy timeout, a clock. */
export interface StalledUploadServices extends DeploySiting {
  readonly store: Pick<Store, 'db' | 'transaction' | 'signals'>;
  readonly options: DeploySiting['options'] & { readonly deployTimeoutMs: number };
  readonly now: () => number;
}

/**
 * Uploads idle past `--deploy-timeout` (a client that vanished, a server killed mid-upload)
 * are marked failed with `deploy.failed`; what was live stays live (docs/hosting.md). A
 * build's deploy is not one: the build worker ends it with its build.
 */
export async function failStaleDeploys(services: StalledUploadServices): Promise<number> {
  const now = services.now();
  const stale = await staleUploads(services.store.db, now - services.options.deployTimeoutMs, 100);
  let failed = 0;
  for (const row of stale) {
    const done = await services.store.transaction(async (trx) => {
      const project = await findProjectById(trx, row.project_id);
      const workspace = await findWorkspaceById(trx, project.workspace_id);
      return failDeploy(trx, services, { project, workspace }, row, 'the upload stopped before the deploy was finished', now);
    });
    if (done) failed += 1;
  }
  if (failed > 0) services.store.signals.events.announce();
  return failed;
}

/**
 * Marks uploads that stopped making progress failed: at start (a server killed mid-upload
 * leaves its deploy `uploading`) and then every half deploy timeout.
 */
export function watchDeploys(services: StalledUploadServices, logger: Logger, reportFailure: (error: unknown, what: string) => void): { stop(): void; check(): Promise<void> } {
  const check = async (): Promise<void> => {
    try {
      const failed = await failStaleDeploys(services);
      if (failed > 0) logger.warn({ failed }, `marked ${failed} stalled ${failed === 1 ? 'deploy' : 'deploys'} failed: the upload stopped before it was finished`);
    } catch (error) {
      reportFailure(error, 'could not check for stalled deploys');
    }
  };
  const every = Math.min(60_000, Math.max(1_000, Math.floor(services.options.deployTimeoutMs / 2)));
  const timer = setInterval(() => void check(), every);
  timer.unref();
  return { stop: () => clearInterval(timer), check };
}
