import { mkdir, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { defaultDeployLimits } from '../../hosting/deploy-limits.js';
import { BuildError } from './build-error.js';
import { buildEnvironment, defaultBuildMemoryBytes } from './build-environment.js';
import type { BuildRequest, BuildResult } from './build-request.js';
import { runBuildStep } from './build-step.js';
import { fetchSource } from './fetch-source.js';
import { frameworkPlan } from './framework-steps.js';
import { LogRing } from './log-ring.js';
import { BuildCgroup, memoryCapMethod } from './memory-cgroup.js';
import { checkOutput } from './output-check.js';
import { assertHidden, resolveSandbox, sandboxHome } from './sandbox.js';

export { BuildError, type BuildErrorCode } from './build-error.js';
export type { BuildRequest, BuildResult } from './build-request.js';
export { resolveBranchHead, type ResolveBranchHeadOptions } from './resolve-branch-head.js';
export type { SandboxChoice } from './sandbox.js';
export { memoryCapMethod, removeStaleBuildCgroups, type MemoryCapMethod } from './memory-cgroup.js';

/**
 * The project's git cache under the data dir, `<dataDir>/builds/git/<projectId>.git`: a bare
 * repository its builds fetch into (docs/hosting.md), never shown to a build.
 */
export function projectGitCache(dataDir: string, projectId: string): string {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(projectId)) throw new Error(`not a project id: ${projectId}`);
  return join(resolve(dataDir), 'builds', 'git', `${projectId}.git`);
}

/** The end of the output a failed step is read from (a heap that ran out says so there). */
const stepTailBytes = 64 * 1024;

/**
 * Builds one commit of a project (docs/hosting.md, "What a build may and may not see"): fetches exactly the
 * commit, runs the framework's commands in a sandbox with an environment made from
 * nothing, at the lowest CPU and I/O priority, and checks the output. Everything the build
 * runs is killed at the timeout, on cancel, and when it ends. The output goes to
 * `request.onLog` as it comes; throws {@link BuildError}.
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
  try {
    return { outputDir: await build(request, write, log) };
  } catch (error) {
    const failure = error instanceof BuildError ? error : new BuildError('build_failed', `the build failed: ${(error as Error).message}`);
    write(`\nBuild failed: ${failure.message}\n`);
    throw failure;
  }
}

async function build(request: BuildRequest, write: (chunk: string) => void, log: LogRing): Promise<string> {
  const deadline = Date.now() + request.timeoutMs;
  if (request.signal.aborted) throw new BuildError('canceled', 'canceled before it started');
  const sandbox = await resolveSandbox(request.sandbox);
  const workDir = resolve(request.workDir);
  if (sandbox === 'bwrap') assertHidden([workDir, ...(request.privateDirs ?? []), ...(request.cacheDir === undefined ? [] : [request.cacheDir])]);
  await mkdir(workDir, { recursive: true });
  if ((await readdir(workDir)).length > 0) throw new BuildError('build_failed', `the work folder ${workDir} is not empty`);
  const checkoutDir = join(workDir, 'src');
  const homeDir = join(workDir, 'home');
  const tmpDir = join(workDir, 'tmp');
  await Promise.all([mkdir(homeDir), mkdir(tmpDir)]);

  await fetchSource(request, { checkoutDir, workDir, deadline, write });

  const plan = frameworkPlan(request.framework, checkoutDir, { buildNetwork: request.buildNetwork });
  write(`Framework ${request.framework}: ${plan.steps.length === 0 ? 'nothing to build' : `${plan.steps.length} steps`}; sandbox: ${sandbox === 'bwrap' ? 'bubblewrap' : 'none (the build runs with the server\'s file access)'}\n`);
  const memoryBytes = request.memoryBytes ?? defaultBuildMemoryBytes;
  const env =
    sandbox === 'bwrap'
      ? buildEnvironment({ home: sandboxHome, tmp: '/tmp', memoryBytes })
      : buildEnvironment({ home: homeDir, tmp: tmpDir, memoryBytes });
  const cgroup = plan.steps.length === 0 ? null : await buildCgroup(memoryBytes, write);
  try {
    for (const step of plan.steps) {
      await runBuildStep(step, { sandbox, checkoutDir, homeDir, env, deadline, signal: request.signal, timeoutMs: request.timeoutMs, network: request.network !== false, write, log, memoryBytes, cgroup });
    }
  } finally {
    await cgroup?.remove().catch((error: unknown) => write(`\nThe build's cgroup could not be removed: ${(error as Error).message}\n`));
  }
  return checkOutput(checkoutDir, plan.outputDir, request.outputLimits ?? defaultDeployLimits);
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
