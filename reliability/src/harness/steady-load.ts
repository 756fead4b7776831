import { randomBytes } from 'node:crypto';

/** One request of a steady load: when it started and ended, and how it was answered. */
export interface LoadOutcome {
  readonly key: string;
  readonly startedAt: number;
  readonly endedAt: number;
  /** The HTTP status, or 0 when the connection failed. */
  readonly status: number;
  /** The submission id of a 200. */
  readonly id: string | null;
}

export interface SteadyLoadOptions {
  /** The form endpoint. */
  readonly url: string;
  readonly clients: number;
  /** Submissions a second, all clients together. */
  readonly perSecond: number;
  /** Share of submissions sent as multipart with a file of `fileBytes`. */
  readonly fileShare?: number;
  readonly fileBytes?: number;
}

export interface SteadyLoad {
  readonly outcomes: LoadOutcome[];
  /** The first 200 of a request that started at or after `since` (ms, performance.now()), or null. */
  firstAcknowledgedAfter(since: number): LoadOutcome | null;
  stop(): Promise<LoadOutcome[]>;
}

/**
 * A steady load on a form endpoint, as a dependency fails under it: `clients` submitters,
 * paced to `perSecond` in all, each submission with its own idempotency key. Every
 * request is recorded (status or connection failure, start and end), so a scenario can
 * count what was acknowledged, refused and lost, and how long the longest request took.
 */
export function startSteadyLoad(options: SteadyLoadOptions): SteadyLoad {
  const outcomes: LoadOutcome[] = [];
  const run = randomBytes(4).toString('hex');
  const intervalMs = (1_000 * options.clients) / options.perSecond;
  let stopping = false;
  const client = async (worker: number): Promise<void> => {
    let next = performance.now() + (intervalMs * worker) / options.clients;
    for (let n = 0; !stopping; n++) {
      const wait = next - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      next = Math.max(next + intervalMs, performance.now());
      if (stopping) return;
      const key = `load-${run}-${worker}-${n}`;
      const withFile = Math.random() < (options.fileShare ?? 0);
      const startedAt = performance.now();
      let status = 0;
      let id: string | null = null;
      try {
        const body = withFile ? multipart(worker, n, options.fileBytes ?? 16_384) : JSON.stringify({ worker, n, email: 'load@example.com' });
        const headers: Record<string, string> = { 'idempotency-key': key };
        if (!withFile) headers['content-type'] = 'application/json';
        const response = await fetch(options.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(60_000) });
        status = response.status;
        const answer = (await response.json().catch(() => null)) as { id?: string } | null;
        if (status === 200) id = answer?.id ?? null;
      } catch {
        status = 0;
      }
      outcomes.push({ key, startedAt, endedAt: performance.now(), status, id });
    }
  };
  const clients = Array.from({ length: options.clients }, (_, worker) => client(worker));
  return {
    outcomes,
    firstAcknowledgedAfter: (since) => outcomes.find((outcome) => outcome.status === 200 && outcome.startedAt >= since) ?? null,
    stop: async () => {
      stopping = true;
      await Promise.all(clients);
      return outcomes;
    },
  };
}

function multipart(worker: number, n: number, bytes: number): FormData {
  const form = new FormData();
  form.set('worker', String(worker));
  form.set('n', String(n));
  form.set('attachment', new Blob([randomBytes(bytes)]), `w${worker}-${n}.bin`);
  return form;
}

/** `{"200": 1234, "503": 56}`, as `200: 1234, 503: 56`. */
export function countStatuses(outcomes: readonly LoadOutcome[]): string {
  const counts = new Map<number, number>();
  for (const outcome of outcomes) counts.set(outcome.status, (counts.get(outcome.status) ?? 0) + 1);
  return [...counts.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${status === 0 ? 'connection failed' : status}: ${count}`)
    .join(', ');
}

export function longestMs(outcomes: readonly LoadOutcome[]): number {
  return Math.round(Math.max(0, ...outcomes.map((outcome) => outcome.endedAt - outcome.startedAt)));
}
