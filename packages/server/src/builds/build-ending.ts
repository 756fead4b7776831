import { setTimeout as sleep } from 'node:timers/promises';

/** How long to wait before each new try at recording a build's end (docs/hosting.md, "Disk"). */
export const endRetryDelaysMs: readonly number[] = [0, 500, 2_000, 5_000, 10_000, 20_000];

/** The log kept with a build's end on each try: whole first, then its last 64 KiB, then the reason alone. */
export function logForTry(log: string, reason: string | null, attempt: number): string {
  if (attempt === 0) return log;
  if (attempt === 1) return log.length <= 64 * 1024 ? log : `…\n${log.slice(-64 * 1024)}`;
  return reason === null ? '' : `failed: ${reason}\n`;
}

/**
 * Records a build's end, trying again while the store cannot take it (a disk that filled,
 * the database away), each time with less of the log, so that a build never stays
 * `building` and keeps its reason. `write` gets the try's number; `stopped` ends the tries
 * early (the server stops: the lease then runs out and the next start fails the build).
 * True once recorded.
 */
export async function recordEnd(
  write: (attempt: number) => Promise<void>,
  options: { readonly delaysMs?: readonly number[]; readonly stopped: () => boolean; readonly onFailure: (error: unknown, attempt: number) => void },
): Promise<boolean> {
  const delays = options.delaysMs ?? endRetryDelaysMs;
  for (const [attempt, delay] of delays.entries()) {
    if (delay > 0) await sleep(delay);
    if (attempt > 0 && options.stopped()) return false;
    try {
      await write(attempt);
      return true;
    } catch (error) {
      options.onFailure(error, attempt);
    }
  }
  return false;
}
