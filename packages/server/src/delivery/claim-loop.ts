import { strict as assert } from 'node:assert';
import { claimWebhookDeliveries, clearLapsedLeases, readyWebhooks, type Lease } from '../store/queries/claim-deliveries.js';
import type { DeliveryJob } from '../store/queries/delivery-jobs.js';
import { dispatchEvents } from '../store/queries/dispatch-events.js';
import { nextLeaseEnd } from '../store/queries/next-delivery-due.js';
import type { Db, Store } from '../store/store.js';
import type { AdmissionLedger, ShareKey } from './admission-ledger.js';
import { WakeTimer } from './wake-timer.js';

/**
 * The claim loop: the worker's only way to new work. It runs rounds; each round is one
 * transaction (committed without an fsync: safe to lose, it is redone) that does what the
 * wake-ups since the last round asked for:
 * - `events`: fan out undispatched outbox events, leasing at once the new deliveries the
 *   ledger admits; webhooks left with unleased ones join the backlog;
 * - `discover`: make lapsed leases ready again, put every webhook with ready due deliveries
 *   in the backlog, and set the timer for the next retry or lease end (at most every
 *   `discoverEveryMs`: a wake-up sooner is kept for then; asked with new events, it comes
 *   in the round after, so that the new deliveries go out first);
 * - refills: claim for each webhook of the backlog that has room (`ledger.refills()`),
 *   through its own index, so every claim walks only the rows it takes.
 *
 * Modes, one at a time, changed only through `enter`, which asserts the transition:
 * - `idle`: no round runs. A wake-up (new events announced, a due time, a webhook of the
 *   backlog with room again, the safety poll) starts one at once: → `claiming`.
 * - `claiming`: rounds run one after the other while anything is asked; wake-ups meanwhile
 *   are merged into the next round. Nothing left to ask: → `idle`. A round failed (the
 *   database away): → `backing-off`.
 * - `backing-off`: waits `retryAfterFailureMs` (1 s), merging wake-ups, then → `claiming` with
 *   everything the failed round asked for and a discovery.
 * - `stopped`: from any mode; claims nothing more. `stop()` waits for the round in flight,
 *   whose leases are still handed over.
 */
export type ClaimLoopMode = 'idle' | 'claiming' | 'backing-off' | 'stopped';

const transitions: Readonly<Record<ClaimLoopMode, readonly ClaimLoopMode[]>> = {
  idle: ['claiming', 'stopped'],
  claiming: ['idle', 'backing-off', 'stopped'],
  'backing-off': ['claiming', 'stopped'],
  stopped: [],
};

/** What the next round is asked to do. */
export interface ClaimWants {
  readonly events?: boolean;
  readonly discover?: boolean;
  /** A webhook of the backlog may have room: only refills. */
  readonly refill?: boolean;
}

export interface ClaimLoopDependencies {
  readonly store: Store;
  readonly ledger: AdmissionLedger;
  /** This worker's lease owner name. */
  readonly owner: string;
  readonly leaseMs: number;
  /** Events fanned out per round. */
  readonly eventBatch: number;
  /** The safety-net poll: no timer is set later than this. */
  readonly pollIntervalMs: number;
  readonly now: () => number;
  /** Gets every delivery a round leased, held in the ledger already. */
  readonly leased: (jobs: DeliveryJob[]) => void;
  readonly reportFailure: (error: unknown, context: string) => void;
  /** After the database failed a round, the next comes this much later (default 1 s). */
  readonly retryAfterFailureMs?: number;
}

/** The shortest wait of a timer. */
const minWaitMs = 20;
/** Discoveries (one index look per enabled webhook) are made at most this often. */
export const discoverEveryMs = 50;

export class ClaimLoop {
  private mode: ClaimLoopMode = 'idle';
  private wants = { events: false, discover: false, refill: false };
  private rounds: Promise<void> | null = null;
  private lastDiscoveryAt = Number.NEGATIVE_INFINITY;
  /** The last round left its discovery to this one. */
  private discoveryPostponed = false;
  private readonly timer = new WakeTimer(() => (this.mode === 'backing-off' ? this.run() : this.wake({ discover: true })));

  constructor(private readonly dependencies: ClaimLoopDependencies) {}

  get currentMode(): ClaimLoopMode {
    return this.mode;
  }

  /** Asks for a round; starts one at once when idle. */
  wake(wants: ClaimWants): void {
    if (this.mode === 'stopped') return;
    this.wants.events ||= wants.events === true;
    this.wants.discover ||= wants.discover === true;
    this.wants.refill ||= wants.refill === true;
    if (this.mode === 'idle') this.run();
  }

  /** Makes sure a discovery comes by `due` (never later than the safety poll). */
  wakeAt(due: number | null): void {
    if (due === null || this.mode === 'stopped') return;
    const now = this.dependencies.now();
    this.timer.wakeAt(Math.min(Math.max(due, now + minWaitMs), now + this.dependencies.pollIntervalMs), now);
  }

  async stop(): Promise<void> {
    if (this.mode === 'stopped') return;
    this.enter('stopped');
    this.timer.clear();
    await this.rounds;
  }

  /** Read anew after an await (`mode` may have changed meanwhile). */
  private isStopped(): boolean {
    return this.mode === 'stopped';
  }

  private enter(next: ClaimLoopMode): void {
    assert.ok(transitions[this.mode].includes(next), `claim loop: no way from ${this.mode} to ${next}`);
    this.mode = next;
  }

  private run(): void {
    this.enter('claiming');
    this.rounds = this.roundsWhileAsked();
  }

  private async roundsWhileAsked(): Promise<void> {
    while (this.mode === 'claiming') {
      const wants = this.takeWants();
      if (wants === null) return this.enter('idle');
      try {
        await this.round(wants);
      } catch (error) {
        if (this.isStopped()) return;
        this.dependencies.reportFailure(error, 'delivery worker: claiming work failed; trying again shortly');
        this.wants = { events: this.wants.events || wants.events, discover: true, refill: true };
        this.enter('backing-off');
        this.timer.clear();
        this.wakeAt(this.dependencies.now() + (this.dependencies.retryAfterFailureMs ?? 1_000));
        return;
      }
    }
  }

  /**
   * What this round does. A discovery asked for too soon is left for its time, and one asked
   * for with new events is left for the next round, so that the new deliveries go out first.
   * Null when nothing is asked.
   */
  private takeWants(): { events: boolean; discover: boolean } | null {
    const { events, refill } = this.wants;
    let { discover } = this.wants;
    this.wants = { events: false, discover: false, refill: false };
    const nextDiscovery = this.lastDiscoveryAt + discoverEveryMs;
    if (discover && this.dependencies.now() < nextDiscovery) {
      discover = false;
      this.wakeAt(nextDiscovery);
    } else if (discover && events && !this.discoveryPostponed) {
      // Once: under a stream of events it comes with the next round's.
      discover = false;
      this.wants.discover = true;
    }
    this.discoveryPostponed = this.wants.discover;
    return events || discover || refill ? { events, discover } : null;
  }

  private async round(wants: { events: boolean; discover: boolean }): Promise<void> {
    const { store, ledger, now: clock } = this.dependencies;
    if (!wants.events && !wants.discover && ledger.refills().length === 0) return;
    const now = clock();
    const lease = { owner: this.dependencies.owner, expiresAt: now + this.dependencies.leaseMs };
    const leased: DeliveryJob[] = [];
    /** What the ledger holds for this round: released again if the transaction fails. */
    const held: ShareKey[] = [];
    let next: number | null | undefined;
    try {
      await store.transaction(
        async (trx) => {
          if (wants.discover) {
            this.lastDiscoveryAt = now;
            next = await this.discover(trx, now);
          }
          if (wants.events) await this.fanOut(trx, now, lease, held, leased);
          for (const refill of ledger.refills()) {
            const jobs = await claimWebhookDeliveries(trx, store.capabilities, { webhookId: refill.webhookId, limit: refill.limit, now, lease });
            for (const job of jobs) ledger.hold(job);
            held.push(...jobs);
            leased.push(...jobs);
            if (jobs.length < refill.limit) ledger.caughtUp(refill.webhookId);
          }
        },
        { durable: false },
      );
    } catch (error) {
      for (const key of held) ledger.release(key);
      throw error;
    }
    if (leased.length > 0) this.dependencies.leased(leased);
    if (next !== undefined) this.wakeAt(next);
  }

  /**
   * Makes lapsed leases ready again and puts every webhook with due deliveries nobody holds in
   * the backlog; returns when the next retry or lease end comes (null: none is scheduled).
   */
  private async discover(trx: Db, now: number): Promise<number | null> {
    await clearLapsedLeases(trx, this.dependencies.store.capabilities, now);
    let next = await nextLeaseEnd(trx, now);
    for (const ready of await readyWebhooks(trx)) {
      if (ready.firstDueAt <= now) this.dependencies.ledger.addBacklog(ready);
      else if (next === null || ready.firstDueAt < next) next = ready.firstDueAt;
    }
    return next;
  }

  /**
   * Fans out events, leasing the new deliveries the ledger has room for (held as they are
   * admitted); webhooks left with unleased ones join the backlog.
   */
  private async fanOut(trx: Db, now: number, lease: Lease, held: ShareKey[], leased: DeliveryJob[]): Promise<void> {
    const { store, ledger, eventBatch } = this.dependencies;
    const admitted: ShareKey[] = [];
    const admit = (key: ShareKey): boolean => {
      if (ledger.holdRoom(key) <= 0) return false;
      ledger.hold(key);
      admitted.push(key);
      held.push(key);
      return true;
    };
    const dispatched = await dispatchEvents(trx, store.capabilities, { now, eventLimit: eventBatch, lease: { ...lease, admit } });
    leased.push(...dispatched.leased);
    for (const key of dispatched.unleased) ledger.addBacklog(key);
    // Admitted but not leased (a delivery that existed already): not held after all.
    const leasedOf = new Map<string, number>();
    for (const job of dispatched.leased) leasedOf.set(job.webhookId, (leasedOf.get(job.webhookId) ?? 0) + 1);
    for (const key of admitted) {
      const left = leasedOf.get(key.webhookId) ?? 0;
      if (left > 0) leasedOf.set(key.webhookId, left - 1);
      else {
        ledger.release(key);
        held.splice(held.indexOf(key), 1);
      }
    }
    // More events may be waiting: the next round fans them out.
    if (dispatched.more) this.wants.events = true;
  }
}
