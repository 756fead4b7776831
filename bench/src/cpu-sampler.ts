import { readFile } from 'node:fs/promises';

/** Linux's clock ticks per second (`getconf CLK_TCK`), the unit of /proc/PID/stat's times. */
const ticksPerSecond = 100;

/** The CPU time (user + system) a process has used so far, in ms; null once it is gone. */
async function cpuMs(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name, which may itself hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
  } catch {
    return null;
  }
}

/**
 * Samples a process's CPU time every `intervalMs` (with `performance.now()` stamps), so that
 * a run can tell the CPU it used within a window, such as from its first delivery to its
 * last: per delivery, a figure that a busy machine moves far less than a rate (bench/README.md).
 */
export function sampleCpu(pid: number, intervalMs = 50): { within(from: number, to: number): { from: number; to: number; ms: number } | null; stop(): Promise<void> } {
  const samples: { at: number; ms: number }[] = [];
  let pending: Promise<void> = Promise.resolve();
  const take = (): void => {
    pending = cpuMs(pid).then((ms) => {
      if (ms !== null) samples.push({ at: performance.now(), ms });
    });
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    // The CPU used between the first sample at or after `from` and the last at or before `to`.
    within: (from, to) => {
      const first = samples.find((sample) => sample.at >= from);
      const last = samples.filter((sample) => sample.at <= to).at(-1);
      return first && last && last.at > first.at ? { from: first.at, to: last.at, ms: last.ms - first.ms } : null;
    },
    stop: async () => {
      clearInterval(timer);
      await pending;
      take();
      await pending;
    },
  };
}
