import { existsSync } from 'node:fs';
import { durationText } from '../../duration-text.js';
import { BuildError } from './build-error.js';
import type { BuildStep } from './framework-steps.js';
import type { LogRing } from './log-ring.js';
import type { BuildCgroup } from './memory-cgroup.js';
import { runProcessTree } from './process-tree.js';
import { bubblewrapArgs, bubblewrapPath } from './sandbox.js';

export interface StepContext {
  readonly sandbox: 'bwrap' | 'none';
  readonly checkoutDir: string;
  readonly homeDir: string;
  readonly env: Record<string, string>;
  readonly deadline: number;
  readonly signal: AbortSignal;
  readonly timeoutMs: number;
  /** Whether the build may use the network at all. */
  readonly network: boolean;
  readonly write: (chunk: string) => void;
  readonly log: LogRing;
  readonly memoryBytes: number;
  /** The build's cgroup, which every step joins before it runs; null where none can be made (docs/hosting.md). */
  readonly cgroup: BuildCgroup | null;
}

/** The lowest CPU and I/O priority, so a build never starves what is serving. */
function lowPriority(): string[] {
  return [...(existsSync('/usr/bin/nice') ? ['/usr/bin/nice', '-n', '19'] : []), ...(existsSync('/usr/bin/ionice') ? ['/usr/bin/ionice', '-c', '3', '-t'] : [])];
}

/** Runs one step of a build, in the sandbox when there is one; a failure throws its BuildError. */
export async function runBuildStep(step: BuildStep, context: StepContext): Promise<void> {
  const shown = [step.command, ...step.args].join(' ');
  context.write(`\n$ ${shown}\n`);
  const network = step.network && context.network;
  const inner =
    context.sandbox === 'bwrap'
      ? [bubblewrapPath, ...bubblewrapArgs({ checkoutDir: context.checkoutDir, homeDir: context.homeDir, network }), '--', step.command, ...step.args]
      : [step.command, ...step.args];
  const prioritized = [...lowPriority(), ...inner];
  const [command, ...args] = (context.cgroup === null ? prioritized : context.cgroup.wrap(prioritized)) as [string, ...string[]];
  const oomKillsBefore = (await context.cgroup?.oomKills()) ?? 0;
  const outcome = await runProcessTree({
    command,
    args,
    cwd: context.checkoutDir,
    env: context.env,
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
  if (signal === 'SIGKILL') return `${shown} was killed (out of memory? the build's cap is ${Math.round(context.memoryBytes / 1024 ** 2)} MiB, --build-memory)`;
  if (signal !== null) return `${shown} was ended by ${signal}`;
  return `${shown} exited with code ${code ?? 'unknown'}`;
}
