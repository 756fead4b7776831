import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { cpus, hostname, loadavg, release, totalmem } from 'node:os';
import { repoRoot } from '@svc/testkit';

export interface MachineInfo {
  readonly hostname: string;
  readonly cpuModel: string;
  readonly cpus: number;
  readonly memoryGiB: number;
  readonly kernel: string;
  readonly node: string;
  readonly commit: string;
  /** Uncommitted changes in the working tree when the run started. */
  readonly dirty: boolean;
  readonly loadAverageAtStart: readonly number[];
  /** Share of all CPUs busy during a few seconds before the run, while the bench itself waited. */
  readonly busyBeforeStart: number | null;
}

function git(args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

export async function machineInfo(): Promise<MachineInfo> {
  return {
    hostname: hostname(),
    cpuModel: cpus()[0]?.model ?? 'unknown',
    cpus: cpus().length,
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    kernel: release(),
    node: process.version,
    commit: git(['rev-parse', '--short', 'HEAD']) || 'unknown',
    dirty: git(['status', '--porcelain']) !== '',
    loadAverageAtStart: loadavg().map((value) => Math.round(value * 100) / 100),
    busyBeforeStart: await busyShare(3_000),
  };
}

/** Share of CPU time spent busy over `ms` (Linux /proc/stat), or null where unknown. */
async function busyShare(ms: number): Promise<number | null> {
  const sample = async (): Promise<{ busy: number; total: number } | null> => {
    const line = (await readFile('/proc/stat', 'utf8').catch(() => '')).split('\n')[0] ?? '';
    const values = line.trim().split(/\s+/).slice(1).map(Number);
    if (values.length < 5) return null;
    const idle = (values[3] ?? 0) + (values[4] ?? 0);
    const total = values.reduce((sum, value) => sum + value, 0);
    return { busy: total - idle, total };
  };
  const before = await sample();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = await sample();
  if (!before || !after || after.total === before.total) return null;
  return Math.round(((after.busy - before.busy) / (after.total - before.total)) * 1000) / 1000;
}

/**
 * Quiet enough to measure: under 5 % of the CPUs busy while the bench waited before starting
 * (the load average also counts the build that `npm run bench` just ran).
 */
export function isQuiet(machine: MachineInfo): boolean {
  return machine.busyBeforeStart !== null ? machine.busyBeforeStart < 0.05 : (machine.loadAverageAtStart[0] ?? Number.POSITIVE_INFINITY) < 0.25;
}
