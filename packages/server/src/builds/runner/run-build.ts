import { mkdir, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { defaultDeployLimits } from '../../deploys/deploy-limits.js';
import { formatBytes } from '../../lib/format-bytes.js';
import { BuildError } from './build-error.js';
import { buildEnvironment, defaultBuildMemoryBytes } from './build-environment.js';
import type { BuildRequest, BuildResult } from './build-request.js';
import { runBuildStep } from './build-step.js';
import { fetchSource } from './fetch-source.js';
import { frameworkPlan } from './framework-steps.js';
import { LogRing } from './log-ring.js';
import { BuildCgroup, memoryCapMethod } from './memory-cgroup.js';
import { folderBytes } from './disk-usage.js';
import { DiskWatch, type DiskLimits } from './disk-watch.js';
import { checkOutput } from './output-check.js';
import { assertHidden, resolveSandbox, sandboxHome } from './sandbox.js';

export { BuildError, type BuildErrorCode } from './build-error.js';
export type { BuildRequest, BuildResult } from './build-request.js';
export { resolveBranchHead, type ResolveBranchHeadOptions } from './resolve-branch-head.js';
export type { SandboxChoice } from './sandbox.js';
export { EgressProxy, type EgressGate } from './egress-proxy.js';
export { pruneGitCache, removeGitCache } from './git-cache.js';
export type { DiskLimits } from './disk-watch.js';
export { memoryCapMethod, removeStaleBuildCgroups, type MemoryCapMethod } from './memory-cgroup.js';

/**
 * The project's git cache in the build folder, `<build dir>/git/<projectId>.git` (the build
 * dir is `<data dir>/builds` unless `--build-dir`): a bare repository its builds fetch into
 * (docs/hosting.md), never shown to a build.
 */
export function projectGitCache(buildDir: string, projectId: string): string {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(projectId)) throw new Error(`not a project id: ${projectId}`);
  return join(resolve(buildDir), 'git', `${projectId}.git`);
}

/** The end of the output a failed step is read from (a heap that ran out says so there). */
const stepTailBytes = 64 * 1024;

/** A build's disk limits unless configured (docs/hosting.md, "Disk"). */
export const defaultDiskLimits: DiskLimits = { diskBytes: 2 * 1024 ** 3, minFreeBytes: 1024 ** 3, intervalMs: 1_000 };

/**
 * Builds one commit of a project (docs/hosting.md, "What a build may and may not see"): fetches exactly the
 * commit, runs the framework's commands in a sandbox with an environment made from
 * nothing, at the lowest CPU and I/O priority, and checks the output. Everything the build
 * runs is killed at the timeout, on cancel, when its disk passes its cap or the free space
 * its watermark, and when it ends. The output goes to `request.onLog` as it comes; throws
 * {@link BuildError}.
 */
export async function runBuild(request: BuildRequest): Promise<BuildResult> {
  const log = new LogRing(stepTailBytes);
  const write = (chunk: string): void => {
    log.append(chunk);
    try {
      request.onLog(chunk);
    } catch {
      // A listener's failure must not end the build, nor escape from a stream's event.
    }
  };
  const stop = new AbortController();
  const onCancel = (): void => stop.abort();
  request.signal.addEventListener('abort', onCancel, { once: true });
  if (request.signal.aborted) stop.abort();
  const workDir = resolve(request.workDir);
  const limits = request.disk ?? defaultDiskLimits;
  const cacheDir = request.cacheDir === undefined ? [] : [resolve(request.cacheDir)];
  let watch: DiskWatch | null = null;
  try {
    await mkdir(workDir, { recursive: true });
    watch = new DiskWatch(limits, { folders: [workDir, ...cacheDir], baselineBytes: await folderBytes(cacheDir), fileSystems: [{ name: 'the build folder', path: workDir }, ...(request.watchedDirs ?? [])] }, () => stop.abort());
    const lowOnSpace = await watch.check();
    if (lowOnSpace !== null) throw new BuildError('disk_limit', lowOnSpace);
    watch.start();
    return { outputDir: await build({ ...request, signal: stop.signal }, workDir, limits, watch, write, log) };
  } catch (error) {
    let failure = error instanceof BuildError ? error : new BuildError('build_failed', `the build failed: ${(error as Error).message}`);
    // A build stopped for its disk, or whose step failed on a full one, fails for that reason.
    if (failure.code !== 'disk_limit' && !request.signal.aborted && watch !== null) {
      const disk = watch.exceeded ?? (await watch.check());
      if (disk !== null) failure = new BuildError('disk_limit', disk);
    }
    write(`\nBuild failed: ${failure.message}\n`);
    throw failure;
  } finally {
    request.signal.removeEventListener('abort', onCancel);
    await watch?.stop();
  }
}

async function build(request: BuildRequest, workDir: string, limits: DiskLimits, watch: DiskWatch, write: (chunk: string) => void, log: LogRing): Promise<string> {
  const deadline = Date.now() + request.timeoutMs;
  if (request.signal.aborted) throw new BuildError('canceled', 'canceled before it started');
  const sandbox = await resolveSandbox(request.sandbox);
  if (sandbox === 'bwrap') assertHidden([workDir, ...(request.privateDirs ?? []), ...(request.cacheDir === undefined ? [] : [request.cacheDir])]);
  if ((await readdir(workDir)).length > 0) throw new BuildError('build_failed', `the work folder ${workDir} is not empty`);
  const checkoutDir = join(workDir, 'src');
  const homeDir = join(workDir, 'home');
  const tmpDir = join(workDir, 'tmp');
  await Promise.all([mkdir(homeDir), mkdir(tmpDir)]);

  await fetchSource(request, { checkoutDir, workDir, deadline, write });

  const plan = frameworkPlan(request.framework, checkoutDir, { buildNetwork: request.buildNetwork });
  write(`Framework ${request.framework}: ${plan.steps.length === 0 ? 'nothing to build' : `${plan.steps.length} steps`}; sandbox: ${sandbox === 'bwrap' ? 'bubblewrap' : 'none (the build runs with the server\'s file access)'}\n`);
  write(`Disk cap: ${formatBytes(limits.diskBytes)}, keeping ${formatBytes(limits.minFreeBytes)} free\n`);
  const memoryBytes = request.memoryBytes ?? defaultBuildMemoryBytes;
  const env =
    sandbox === 'bwrap'
      ? buildEnvironment({ home: sandboxHome, tmp: '/tmp', memoryBytes })
      : buildEnvironment({ home: homeDir, tmp: tmpDir, memoryBytes });
  const network = request.network !== false;
  const gate = sandbox === 'bwrap' && network && request.egress !== undefined && plan.steps.some((step) => step.proxied) ? await request.egress.open(write) : null;
  const cgroup = plan.steps.length === 0 ? null : await buildCgroup(memoryBytes, write);
  try {
    for (const step of plan.steps) {
      await runBuildStep(step, { sandbox, checkoutDir, homeDir, tmpDir, env, deadline, signal: request.signal, timeoutMs: request.timeoutMs, network, egressSocket: gate?.socketPath ?? null, diskBytes: limits.diskBytes, write, log, memoryBytes, cgroup });
    }
  } finally {
    await cgroup?.remove().catch((error: unknown) => write(`\nThe build's cgroup could not be removed: ${(error as Error).message}\n`));
    await gate?.close();
  }
  const outputDir = await checkOutput(checkoutDir, plan.outputDir, request.outputLimits ?? defaultDeployLimits);
  const excess = await watch.check();
  if (excess !== null) throw new BuildError('disk_limit', excess);
  return outputDir;
}

/** The build's cgroup where the host lets the server make one (docs/hosting.md); else node's heap cap alone, said in the log. */
async function buildCgroup(memoryBytes: number, write: (chunk: string) => void): Promise<BuildCgroup | null> {
  const cap = `${Math.round(memoryBytes / 1024 ** 2)} MiB`;
  const method = await memoryCapMethod();
  if (method.kind === 'cgroup') {
    try {
      const cgroup = await BuildCgroup.create(method.layout, memoryBytes);
      write(`Memory cap: ${cap} (cgroup v${cgroup.version} ${cgroup.name})\n`);
      return cgroup;
    } catch (error) {
      write(`Memory cap: ${cap} of node's heap only: the build's cgroup could not be made (${(error as Error).message})\n`);
      return null;
    }
  }
  write(`Memory cap: ${cap} of node's heap only (this host lets the server make no cgroup)\n`);
  return null;
}
