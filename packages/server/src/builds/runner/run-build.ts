import { existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { defaultDeployLimits, type DeployLimits } from '../../server-options.js';
import { BuildError } from './build-error.js';
import { buildEnvironment, defaultBuildMemoryBytes } from './build-environment.js';
import { fetchCommit } from './fetch-commit.js';
import { frameworkPlan, type BuildStep } from './framework-steps.js';
import { LogRing, buildLogLimitBytes } from './log-ring.js';
import { checkOutput } from './output-check.js';
import { runProcessTree } from './process-tree.js';
import { assertHidden, bubblewrapArgs, bubblewrapPath, resolveSandbox, sandboxHome, type SandboxChoice } from './sandbox.js';

export { BuildError, type BuildErrorCode } from './build-error.js';
export { resolveBranchHead, type ResolveBranchHeadOptions } from './resolve-branch-head.js';
export type { SandboxChoice } from './sandbox.js';

export interface BuildRequest {
  readonly projectId: string;
  /** `https://…`, or a `file://` URL or absolute path when `allowLocalRepos`. */
  readonly repoUrl: string;
  readonly repoToken?: string | undefined;
  /** The full commit id to build: exactly this commit is fetched. */
  readonly commit: string;
  readonly branch: string;
  /** `static`, `astro`, `next` or `unknown`, as in service.json. */
  readonly framework: string;
  /** A folder of this build under the data dir; created, must be empty. The caller removes it. */
  readonly workDir: string;
  /** For the whole build: fetch, install, build, output check. */
  readonly timeoutMs: number;
  readonly sandbox: SandboxChoice;
  readonly allowLocalRepos: boolean;
  readonly signal: AbortSignal;
  onLog(chunk: string): void;
  /**
   * The project's git cache (a bare repository), shared by its builds:
   * `<dataDir>/builds/git/<projectId>.git`. Without it the build fetches into its workDir.
   */
  readonly cacheDir?: string | undefined;
  /** Whether an https repository may resolve to a private address (`--allow-private-targets`). */
  readonly allowPrivateTargets?: boolean | undefined;
  /** Folders the build must not see, checked against the sandbox's read-only roots (the data dir). */
  readonly privateDirs?: readonly string[] | undefined;
  /** Memory cap (`--build-memory`), default 2 GiB. */
  readonly memoryBytes?: number | undefined;
  /** Output limits, default the deploy limits (20,000 files, 1 GiB, 100 MiB per file). */
  readonly outputLimits?: DeployLimits | undefined;
  /** Whether the build may use the network (default true: npm's registry, a CMS's API). */
  readonly network?: boolean | undefined;
}

/**
 * The project's git cache under the data dir, `<dataDir>/builds/git/<projectId>.git`: a bare
 * repository its builds fetch into (docs/hosting.md), never shown to a build.
 */
export function projectGitCache(dataDir: string, projectId: string): string {
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(projectId)) throw new Error(`not a project id: ${projectId}`);
  return join(resolve(dataDir), 'builds', 'git', `${projectId}.git`);
}

export interface BuildResult {
  /** Absolute, inside workDir. */
  readonly outputDir: string;
  /** The last 1 MiB of the build's output. */
  readonly log: string;
}

/**
 * Builds one commit of a project (docs/hosting.md, "Builds from git"): fetches exactly the
 * commit, runs the framework's commands in a sandbox with an environment made from
 * nothing, at the lowest CPU and I/O priority, and checks the output. Everything the build
 * runs is killed at the timeout, on cancel, and when it ends. Throws {@link BuildError};
 * its `log` holds the same last 1 MiB as a result would.
 */
export async function runBuild(request: BuildRequest): Promise<BuildResult> {
  const log = new LogRing(buildLogLimitBytes);
  const write = (chunk: string): void => {
    log.append(chunk);
    request.onLog(chunk);
  };
  try {
    return { outputDir: await build(request, write, log), log: log.text() };
  } catch (error) {
    const failure = error instanceof BuildError ? error : new BuildError('build_failed', `the build failed: ${(error as Error).message}`);
    write(`\nBuild failed: ${failure.message}\n`);
    failure.log = log.text();
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

  await fetchCommit({
    repoUrl: request.repoUrl,
    repoToken: request.repoToken,
    allowLocalRepos: request.allowLocalRepos,
    allowPrivateTargets: request.allowPrivateTargets,
    commit: request.commit,
    branch: request.branch,
    gitDir: request.cacheDir ?? join(workDir, 'git'),
    checkoutDir,
    scratchDir: join(workDir, 'fetch'),
    deadline,
    signal: request.signal,
    onLog: write,
  });

  const plan = frameworkPlan(request.framework, checkoutDir);
  write(`Framework ${request.framework}: ${plan.steps.length === 0 ? 'nothing to build' : `${plan.steps.length} steps`}; sandbox: ${sandbox === 'bwrap' ? 'bubblewrap' : 'none (the build runs with the server\'s file access)'}\n`);
  const memoryBytes = request.memoryBytes ?? defaultBuildMemoryBytes;
  const env =
    sandbox === 'bwrap'
      ? buildEnvironment({ home: sandboxHome, tmp: '/tmp', memoryBytes })
      : buildEnvironment({ home: homeDir, tmp: tmpDir, memoryBytes });
  for (const step of plan.steps) {
    await runStep(step, { sandbox, checkoutDir, homeDir, env, deadline, request, write, log, memoryBytes });
  }
  return checkOutput(checkoutDir, plan.outputDir, request.outputLimits ?? defaultDeployLimits);
}

interface StepContext {
  readonly sandbox: 'bwrap' | 'none';
  readonly checkoutDir: string;
  readonly homeDir: string;
  readonly env: Record<string, string>;
  readonly deadline: number;
  readonly request: BuildRequest;
  readonly write: (chunk: string) => void;
  readonly log: LogRing;
  readonly memoryBytes: number;
}

/** The lowest CPU and I/O priority, so a build never starves what is serving. */
function lowPriority(): string[] {
  return [...(existsSync('/usr/bin/nice') ? ['/usr/bin/nice', '-n', '19'] : []), ...(existsSync('/usr/bin/ionice') ? ['/usr/bin/ionice', '-c', '3', '-t'] : [])];
}

async function runStep(step: BuildStep, context: StepContext): Promise<void> {
  const shown = [step.command, ...step.args].join(' ');
  context.write(`\n$ ${shown}\n`);
  const network = step.network && context.request.network !== false;
  const inner =
    context.sandbox === 'bwrap'
      ? [bubblewrapPath, ...bubblewrapArgs({ checkoutDir: context.checkoutDir, homeDir: context.homeDir, network }), '--', step.command, ...step.args]
      : [step.command, ...step.args];
  const [command, ...args] = [...lowPriority(), ...inner] as [string, ...string[]];
  const outcome = await runProcessTree({
    command,
    args,
    cwd: context.checkoutDir,
    env: context.env,
    deadline: context.deadline,
    signal: context.request.signal,
    onOutput: context.write,
  });
  switch (outcome.kind) {
    case 'exited':
      if (outcome.code === 0) return;
      throw new BuildError('build_failed', failureReason(shown, outcome.code, outcome.signal, context));
    case 'timeout':
      throw new BuildError('timeout', `timed out after ${formatDuration(context.request.timeoutMs)} (during ${shown})`);
    case 'canceled':
      throw new BuildError('canceled', `canceled (during ${shown})`);
    case 'spawn_failed':
      throw new BuildError('build_failed', `${shown} could not start: ${outcome.message}`);
  }
}

function failureReason(shown: string, code: number | null, signal: NodeJS.Signals | null, context: StepContext): string {
  const cap = `${Math.round(context.memoryBytes / 1024 ** 2)} MiB`;
  if (/JavaScript heap out of memory|Allocation failed/.test(context.log.tail(40))) return `${shown} ran out of memory (the build's cap is ${cap}, --build-memory)`;
  if (signal === 'SIGKILL') return `${shown} was killed (out of memory? the build's cap is ${cap}, --build-memory)`;
  if (signal !== null) return `${shown} was ended by ${signal}`;
  return `${shown} exited with code ${code ?? 'unknown'}`;
}

function formatDuration(ms: number): string {
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}
