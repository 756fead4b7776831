import { existsSync } from 'node:fs';

/**
 * The command prefix that runs a program at the lowest CPU and I/O priority (`nice -n 19`,
 * `ionice -c 3`), so that builds, git and the measuring of a build's disk never slow what
 * is serving (docs/hosting.md, "Time, processes, memory and priority").
 */
export function lowPriority(): string[] {
  return [...(existsSync('/usr/bin/nice') ? ['/usr/bin/nice', '-n', '19'] : []), ...(existsSync('/usr/bin/ionice') ? ['/usr/bin/ionice', '-c', '3', '-t'] : [])];
}
