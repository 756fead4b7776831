import { readdirSync, readFileSync } from 'node:fs';

/** Host pids of live processes whose command line holds `marker` (zombies excluded): what a build left behind. */
export function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmdline.includes(marker)) continue;
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z') found.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}
