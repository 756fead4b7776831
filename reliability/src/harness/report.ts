/** A line of progress or findings, printed as it happens. */
export type Log = (line: string) => void;

/** What one scenario did and found. `problems` empty means it passed. */
export interface ScenarioResult {
  readonly scenario: string;
  readonly backend: string;
  readonly durationMs: number;
  /** Counts and facts worth printing (what was done, what was seen). */
  readonly facts: Readonly<Record<string, number | string>>;
  /** Every loss, duplicate, 500, crash or refusal that failed; empty when all is well. */
  readonly problems: readonly string[];
}

export const silentLog: Log = () => undefined;

/** A small seeded PRNG (mulberry32), so runs with random moments can be repeated. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export const MiB = 1024 * 1024;

/** Bytes as whole megabytes, for reports of resident memory. */
export function mb(bytes: number): string {
  return `${Math.round(bytes / MiB)} MB`;
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Problems, grouped: the first example of each group is kept with a count, so one systematic
 * fault does not flood the report. Without a group, each problem is its own.
 */
export class ProblemList {
  private readonly groups = new Map<string, { example: string; count: number }>();
  private dropped = 0;

  constructor(private readonly maxGroups = 40) {}

  add(problem: string, group: string = problem): void {
    const existing = this.groups.get(group);
    if (existing) existing.count += 1;
    else if (this.groups.size < this.maxGroups) this.groups.set(group, { example: problem, count: 1 });
    else this.dropped += 1;
  }

  get count(): number {
    return [...this.groups.values()].reduce((sum, group) => sum + group.count, 0) + this.dropped;
  }

  list(): string[] {
    const lines = [...this.groups.values()].map(({ example, count }) => (count > 1 ? `${example} (and ${count - 1} more like it)` : example));
    return this.dropped > 0 ? [...lines, `… and ${this.dropped} more`] : lines;
  }
}
