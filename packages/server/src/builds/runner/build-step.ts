import { existsSync } from 'node:fs';
import { durationText } from '../../lib/duration-text.js';
import { formatBytes } from '../../lib/format-bytes.js';
import { BuildError } from './build-error.js';
import { behindForwarder, proxyEnvironment } from './egress-forwarder.js';
import type { BuildStep } from './framework-steps.js';
import type { LogRing } from './log-ring.js';
import { lowPriority } from './low-priority.js';
import type { BuildCgroup } from './memory-cgroup.js';
import { runProcessTree } from './process-tree.js';
import { bubblewrapArgs, bubblewrapPath, type SandboxNetwork } from './sandbox.js';

export interface StepContext {
  readonly sandbox: 'bwrap' | 'none';
  readonly checkoutDir: string;
  readonly homeDir: string;
  readonly tmpDir: string;
  readonly env: Record<string, string>;
  readonly deadline: number;
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  /** Whether the build may use the network at all. */
  readonly network: boolean;
  /** The egress proxy's socket for the install step (sandboxed builds); null: installing has no network. */
  readonly egressSocket: string | null;
  /** No file a step writes may be larger (`--build-disk`, as RLIMIT_FSIZE). */
  readonly diskBytes: number;
  readonly write: (chunk: string) => void;
  readonly log: LogRing;
  readonly memoryBytes: number;
  /** The build's cgroup, which every step joins before it runs; null where none can be made (docs/hosting.md). */
  readonly cgroup: BuildCgroup | null;
}

/** The largest file a process may write (RLIMIT_FSIZE): one file never passes the build's disk cap between two measures. */
function fileSizeCap(bytes: number): string[] {
  return existsSync('/usr/bin/prlimit') ? ['/usr/bin/prlimit', `--fsize=${bytes}`, '--'] : [];
}

/** The step's network in the sandbox: the build step's only with --build-network; the install step's through the egress proxy. */
function stepNetwork(step: BuildStep, context: StepContext): SandboxNetwork {
  if (!step.network || !context.network) return { kind: 'none' };
  if (step.proxied && context.egressSocket !== null) return { kind: 'egress', socketPath: context.egressSocket };
  return step.proxied ? { kind: 'none' } : { kind: 'host' };
}

/** Runs one step of a build, in the sandbox when there is one; a failure throws its BuildError. */
export async function runBuildStep(step: BuildStep, context: StepContext): Promise<void> {
  const shown = [step.command, ...step.args].join(' ');
  context.write(`\n$ ${shown}\n`);
  let inner: string[];
  let env = context.env;
  if (context.sandbox === 'bwrap') {
    const network = stepNetwork(step, context);
    const command = network.kind === 'egress' ? behindForwarder(process.execPath, step.command, step.args) : [step.command, ...step.args];
    if (network.kind === 'egress') env = { ...env, ...proxyEnvironment() };
    inner = [bubblewrapPath, ...bubblewrapArgs({ checkoutDir: context.checkoutDir, homeDir: context.homeDir, tmpDir: context.tmpDir, network }), '--', ...command];
  } else {
    inner = [step.command, ...step.args];
  }
  const prioritized = [...lowPriority(), ...fileSizeCap(context.diskBytes), ...inner];
  const [command, ...args] = (context.cgroup === null ? prioritized : context.cgroup.wrap(prioritized)) as [string, ...string[]];
  const oomKillsBefore = (await context.cgroup?.oomKills()) ?? 0;
  const outcome = await runProcessTree({
    command,
    args,
    cwd: context.checkoutDir,
    env,
    deadline: context.deadline,
    signal: context.signal,
    onOutput: context.write,
  });
  switch (outcome.kind) {
    case 'exited':
      if (outcome.code === 0) return;
      if (context.cgroup !== null && (await context.cgroup.oomKills()) > oomKillsBefore) throw new BuildError('build_failed', outOfMemory(shown, context));
      throw new BuildError('build_failed', failureReason(shown, outcome.code, outcome.signal, context));
    case 'timeout':
      throw new BuildError('timeout', `timed out after ${durationText(context.timeoutMs)} (during ${shown})`);
    case 'canceled':
      throw new BuildError('canceled', `canceled (during ${shown})`);
    case 'spawn_failed':
      throw new BuildError('build_failed', `${shown} could not start: ${outcome.message}`);
  }
}

function outOfMemory(shown: string, context: StepContext): string {
  return `${shown} ran out of memory (the build's cap is ${Math.round(context.memoryBytes / 1024 ** 2)} MiB, --build-memory)`;
}

function failureReason(shown: string, code: number | null, signal: NodeJS.Signals | null, context: StepContext): string {
  if (/JavaScript heap out of memory|Allocation failed/.test(context.log.tail(40))) return outOfMemory(shown, context);
  if (signal === 'SIGXFSZ') return `${shown} wrote a file larger than the build's disk cap of ${formatBytes(context.diskBytes)} (--build-disk)`;
  if (signal === 'SIGKILL') return `${shown} was killed (out of memory? the build's cap is ${Math.round(context.memoryBytes / 1024 ** 2)} MiB, --build-memory)`;
  if (signal !== null) return `${shown} was ended by ${signal}`;
  return `${shown} exited with code ${code ?? 'unknown'}`;
}
