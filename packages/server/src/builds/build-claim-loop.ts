import { strict as assert } from 'node:assert';

/**
 * The build worker's claim loop (docs/architecture.md, "Builds"): the worker's only way to
 * new builds, on the pattern of the delivery worker's (`delivery/claim-loop.ts`). A round
 * claims builds one transaction at a time while the worker has room and a build waits; it
 * is asked for by the builds signal (a build was queued, here or on another instance), by a
 * build ending (room again, and its environment free), and by the safety poll. Generic over
 * what it claims, so that other queued work (auto runs, pull-request builds) can be claimed
 * the same way.
 *
 * Modes, one at a time, changed only through `enter`, which asserts the transition:
 * - `idle`: no round runs. A wake-up starts one at once: → `claiming`.
 * - `claiming`: rounds run one after the other while a wake-up asked for one; wake-ups
 *   meanwhile are merged into the next round. Nothing more asked: → `idle`. A claim failed
 *   (the database away): → `backing-off`.
 * - `backing-off`: waits `retryAfterFailureMs` (1 s), merging wake-ups, then → `claiming`.
 * - `stopped`: from any mode; claims nothing more. `stop()` waits for the round in flight,
 *   whose claims are still handed over.
 */
export type BuildClaimMode = 'idle' | 'claiming' | 'backing-off' | 'stopped';

const transitions: Readonly<Record<BuildClaimMode, readonly BuildClaimMode[]>> = {
  idle: ['claiming', 'stopped'],
  claiming: ['idle', 'backing-off', 'stopped'],
  'backing-off': ['claiming', 'stopped'],
  stopped: [],
};

export interface BuildClaimDependencies<T> {
  /** Claims one piece of work in one transaction; null when none waits that this worker may take. */
  readonly claim: () => Promise<T | null>;
  /** Whether the worker may start one more now (`--build-concurrency`). */
  readonly hasRoom: () => boolean;
  /** Gets each claimed piece of work, to run; the worker wakes the loop when it ends. */
  readonly claimed: (work: T) => void;
  readonly reportFailure: (error: unknown, context: string) => void;
  /** After a failed claim, the next round comes this much later (default 1 s). */
  readonly retryAfterFailureMs?: number;
}

export class BuildClaimLoop<T> {
  private mode: BuildClaimMode = 'idle';
  private asked = false;
  private rounds: Promise<void> | null = null;
  private retry: NodeJS.Timeout | null = null;

  constructor(private readonly dependencies: BuildClaimDependencies<T>) {}

  get currentMode(): BuildClaimMode {
    return this.mode;
  }

  /** Asks for a round; starts one at once when idle. */
  wake(): void {
    if (this.mode === 'stopped') return;
    this.asked = true;
    if (this.mode === 'idle') this.run();
  }

  async stop(): Promise<void> {
    if (this.mode === 'stopped') return;
    this.enter('stopped');
    if (this.retry) clearTimeout(this.retry);
    await this.rounds;
  }

  private enter(next: BuildClaimMode): void {
    assert.ok(transitions[this.mode].includes(next), `build claim loop: no way from ${this.mode} to ${next}`);
    this.mode = next;
  }

  private run(): void {
    this.enter('claiming');
    this.rounds = this.roundsWhileAsked();
  }

  /** Read anew after an await (`mode` may have changed meanwhile). */
  private isClaiming(): boolean {
    return this.mode === 'claiming';
  }

  private async roundsWhileAsked(): Promise<void> {
    while (this.isClaiming()) {
      if (!this.asked) return this.enter('idle');
      this.asked = false;
      try {
        await this.round();
      } catch (error) {
        if (!this.isClaiming()) return;
        this.dependencies.reportFailure(error, 'build worker: claiming builds failed; trying again shortly');
        this.asked = true;
        this.enter('backing-off');
        this.retry = setTimeout(() => {
          this.retry = null;
          if (this.mode === 'backing-off') this.run();
        }, this.dependencies.retryAfterFailureMs ?? 1_000);
        this.retry.unref();
        return;
      }
    }
  }

  /** Claims while the worker has room and work waits; what it claimed is handed over even when stopped meanwhile. */
  private async round(): Promise<void> {
    const { claim, hasRoom, claimed } = this.dependencies;
    while (this.isClaiming() && hasRoom()) {
      const work = await claim();
      if (work === null) return;
      claimed(work);
    }
  }
}
