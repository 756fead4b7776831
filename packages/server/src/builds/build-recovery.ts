import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { BuildServices } from './build-services.js';
import { failDeploy } from '../deploys/deploy-steps.js';
import { abandonedBuilds, finishBuild, runningBuildIds } from '../store/queries/builds.js';
import { findDeployById } from '../store/queries/deploys.js';
import { findProjectById, findWorkspaceById } from '../store/queries/projects.js';
import { BuildLog } from './build-log.js';

const abandonedReason = 'the server running this build stopped (killed or restarted) before it finished; push again or call the deploy hook';

/**
 * Builds left building by a server that stopped: those whose lease ran out before `before`
 * (every one, on a store only one server uses, at start). Each is failed with the reason,
 * and its deploy too; what was live stays live. `ours` are this process's running builds,
 * never touched. Returns how many were failed.
 */
export async function failAbandonedBuilds(context: BuildServices, before: number, ours: ReadonlySet<string> | ReadonlyMap<string, unknown>): Promise<string[]> {
  const now = context.now();
  const left = await abandonedBuilds(context.store.db, before, 100);
  const failed: string[] = [];
  for (const build of left) {
    if (ours.has(build.id)) continue;
    const log = new BuildLog();
    log.append(build.log);
    log.append(`failed: ${abandonedReason}\n`);
    await context.store.transaction(async (trx) => {
      if (!(await finishBuild(trx, build.id, null, { state: 'failed', error: abandonedReason, log: log.value, now }))) return;
      failed.push(build.id);
      const deploy = build.deploy_id === null ? undefined : await findDeployById(trx, build.deploy_id);
      if (deploy) {
        const project = await findProjectById(trx, build.project_id);
        const workspace = await findWorkspaceById(trx, project.workspace_id);
        await failDeploy(trx, context, { project, workspace }, deploy, abandonedReason, now);
      }
    });
  }
  if (failed.length > 0) context.store.signals.events.announce();
  return failed;
}

/**
 * Removes the folders that builds no longer running left in the build dir (a server killed
 * during a build leaves its checkout and node_modules there): every `bld_…` folder that is
 * not one of `ours` and whose build is not running on any instance. Returns how many.
 */
export async function removeLeftBuildFolders(context: BuildServices, buildDir: string, ours: ReadonlySet<string> | ReadonlyMap<string, unknown>): Promise<number> {
  const names = (await readdir(buildDir).catch(() => [] as string[])).filter((name) => /^bld_[0-9a-z]{1,40}$/.test(name) && !ours.has(name));
  if (names.length === 0) return 0;
  const running = await runningBuildIds(context.store.db, names);
  const left = names.filter((name) => !running.has(name) && !ours.has(name));
  await Promise.all(left.map((name) => rm(join(buildDir, name), { recursive: true, force: true })));
  return left.length;
}
