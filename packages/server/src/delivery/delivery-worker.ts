import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { randomToken } from '../ids.js';
import { claimDueDeliveries, releaseLeases } from '../store/queries/claim-deliveries.js';
import { loadDeliveryJobs, type DeliveryJob } from '../store/queries/delivery-jobs.js';
import { dispatchEvents } from '../store/queries/dispatch-events.js';
import { nextDeliveryDue, nextWebhookDeliveryDue } from '../store/queries/next-delivery-due.js';
import type { Store } from '../store/store.js';
import type { SecretBox } from '../webhooks/secret-box.js';
import { attemptDelivery, type AttemptResult, type MailDelivery } from './attempt-delivery.js';
import { AttemptRecorder } from './attempt-recorder.js';
import type { DeliverySettings } from './delivery-settings.js';
import { HttpSender } from './http-sender.js';
import { ShareCounts } from './share-counts.js';

export interface DeliveryWorkerDependencies {
  readonly store: Store;
  readonly settings: DeliverySettings;
  readonly box: SecretBox;
  /** Sends notification emails; null when the server has no `--smtp-url`. */
  readonly mail: MailDelivery | null;
  readonly logger: Logger;
  /**
   * Told of failures of the worker's own store work; a dependency's failure (the database
   * restarting) is one health line, not one error per try. Default: logged as errors.
   */
  readonly reportFailure?: (error: unknown, context: string) => void;
  /** The clock of leases, schedules and attempts (injected, as the operations' is). */
  readonly now: () => number;
  /** Called after every attempt, for metrics. */
  readonly onAttempt?: (result: AttemptResult) => void;
}

/** The shortest wait of a timer: work that is due but was not claimable is looked at again this soon. */
const minWaitMs = 20;
/** The lookup of the next due delivery is made at most this often (`scheduleNextDue`). */
const dueLookupEveryMs = 250;
/** After the database failed a claim, the next try comes this much later. */
const retryAfterFailureMs = 1_000;
/** An attempt starts only if its lease outlasts the timeout by this much, leaving time to record it. */
const recordingAllowanceMs = 500;

/**
 * Turns outbox events into deliveries and sends them. It wakes up when events are committed
 * (in process on SQLite, LISTEN/NOTIFY on PostgreSQL), when a retry it scheduled or a lease
 * comes due, and on a slow safety-net poll. Each wake-up runs one transaction that fans out
 * new events (leasing the new deliveries to itself, so they go out at once) and claims due
 * deliveries. It holds up to twice as many deliveries as it sends at once, and claims again
 * once half of them are done, so claims come in batches; attempts are recorded in batches.
 */
export class DeliveryWorker {
  /** This worker's lease owner name: host, process and a random part, unique per start. */
  readonly owner = `${hostname()}/${process.pid}/${randomToken(40)}`;
  private readonly sender: HttpSender;
  private readonly recorder: AttemptRecorder;
  private readonly reportFailure: (error: unknown, context: string) => void;
  /** Leased deliveries waiting for a request slot, oldest first. */
  private readonly queue: DeliveryJob[] = [];
  /** Every delivery this worker holds (queued, in flight or being recorded), by id. */
  private readonly held = new Set<string>();
  /**
   * The held deliveries counted in their webhook's and project's shares: queued or in flight.
   * A delivery leaves its share when its request ends, before its attempt is recorded: the
   * shares bound requests to a receiver, and recording (a durable commit) must not hold them.
   */
  private readonly sharing = new Set<string>();
  /** How many deliveries of each webhook this worker holds; at most `settings.perWebhook`. */
  private readonly heldByWebhook: ShareCounts;
  /** How many deliveries of each project this worker holds; at most `settings.perProject`. */
  private readonly heldByProject: ShareCounts;
  /**
   * Webhooks whose last attempt here failed: one attempt at a time until one succeeds, so a
   * receiver that hangs or fails under continuing events holds one slot, not its share, and
   * leaves its project's other webhooks their room.
   */
  private readonly struggling = new Set<string>();
  /** Attempts in flight or being recorded. */
  private readonly running = new Set<Promise<void>>();
  /** Webhooks this worker saw answer 410 Gone, and when: their deliveries claimed before are not sent. */
  private readonly gone = new Map<string, number>();
  /** Webhooks whose last claim of their own found fewer due than they had room for: not claimed for again until a whole claim. */
  private readonly caughtUp = new Set<string>();
  /** Webhooks with room again since the last claim: the next pump claims theirs, through their own index. */
  private readonly freedWebhooks = new Set<string>();
  /** The next pump fans out events and claims for every webhook (not only for freed ones). */
  private wholeClaim = true;
  private lastDueLookupAt = Number.NEGATIVE_INFINITY;
  private sending = 0;
  private waitingForRoom = false;
  private pumping: Promise<void> | null = null;
  private pumpAgain = false;
  private stopped = false;
  private dueTimer: NodeJS.Timeout | null = null;
  private dueAt = Number.POSITIVE_INFINITY;
  private safetyTimer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly dependencies: DeliveryWorkerDependencies) {
    this.sender = new HttpSender(dependencies.settings, dependencies.now);
    this.reportFailure = dependencies.reportFailure ?? ((error, context) => dependencies.logger.error({ err: error }, context));
    this.recorder = new AttemptRecorder(dependencies.store, this.reportFailure, dependencies.now);
    this.heldByWebhook = new ShareCounts((webhookId) => (this.struggling.has(webhookId) ? 1 : dependencies.settings.perWebhook));
    this.heldByProject = new ShareCounts(() => dependencies.settings.perProject);
  }

  private get capacity(): number {
    return 2 * this.dependencies.settings.concurrency;
  }

  start(): void {
    this.unsubscribe = this.dependencies.store.onEvents(() => this.pump());
    this.safetyTimer = setInterval(() => this.pump(), this.dependencies.settings.pollIntervalMs);
    this.safetyTimer.unref();
    this.pump();
  }

  /**
   * Claims nothing more, gives back the leases of deliveries not yet started, lets the
   * attempts in flight finish and be recorded, then closes connections.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.unsubscribe?.();
    if (this.safetyTimer) clearInterval(this.safetyTimer);
    if (this.dueTimer) clearTimeout(this.dueTimer);
    await this.pumping;
    const unsent = this.queue.splice(0).map((job) => job.deliveryId);
    await releaseLeases(this.dependencies.store.db, unsent, this.owner, this.dependencies.now()).catch((error: unknown) =>
      this.dependencies.logger.warn({ err: error }, 'could not give back unused delivery leases; they expire on their own'),
    );
    this.recorder.stopRetrying();
    await Promise.allSettled([...this.running]);
    await this.recorder.drain();
    await this.sender.close();
  }

  /** Claims work; `whole: false` only for webhooks that have room again (`freedWebhooks`). */
  private pump(whole = true): void {
    if (this.stopped) return;
    if (whole) this.wholeClaim = true;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = this.pumpUntilIdle()
      .catch((error: unknown) => {
        this.pumpAgain = false;
        this.reportFailure(error, 'delivery worker: claiming work failed; trying again shortly');
        this.wakeAt(this.dependencies.now() + retryAfterFailureMs);
      })
      .finally(() => {
        this.pumping = null;
        if (this.pumpAgain) this.pump();
      });
  }

  private async pumpUntilIdle(): Promise<void> {
    const { store, settings } = this.dependencies;
    let claimedWhole = false;
    do {
      this.pumpAgain = false;
      if (!this.wholeClaim) {
        await this.claimForFreedWebhooks();
        continue;
      }
      this.wholeClaim = false;
      this.freedWebhooks.clear();
      this.caughtUp.clear();
      claimedWhole = true;
      const room = this.capacity - this.held.size;
      const now = this.dependencies.now();
      const lease = { owner: this.owner, expiresAt: now + settings.leaseMs };
      const excludeWebhooks = this.heldByWebhook.atLimit();
      const excludeProjects = this.heldByProject.atLimit();
      const work = await store.transaction(async (trx) => {
        const dispatched = await dispatchEvents(trx, store.capabilities, { now, eventLimit: settings.eventBatch, lease: { ...lease, limit: room, admit: this.admission() } });
        const claimLimit = room - dispatched.leased.length;
        const claimed = await claimDueDeliveries(trx, store.capabilities, { ...lease, now, limit: claimLimit, excludeWebhooks, excludeProjects });
        const jobs = await loadDeliveryJobs(trx, [...dispatched.leased, ...claimed]);
        return { jobs, moreEvents: dispatched.more, full: claimLimit <= 0 || claimed.length === claimLimit };
        // Safe to lose in a power cut: the events would be fanned out and the deliveries
        // claimed again (at least once). Not waiting for an fsync halves the fsyncs under load.
      }, { durable: false });
      await this.holdOrRelease(work.jobs);
      // Full: there may be more due; a batch of finished attempts makes room and pumps again.
      this.waitingForRoom = work.full;
      if (work.moreEvents && !this.waitingForRoom) {
        this.pumpAgain = true;
        this.wholeClaim = true;
      }
    } while (this.pumpAgain && !this.stopped);
    if (claimedWhole && !this.waitingForRoom && !this.stopped) await this.scheduleNextDue();
  }

  /**
   * Sets the timer for the next delivery that comes due (a retry, an expiring lease). The
   * lookup walks the pending deliveries of the webhooks that are not at their share, so
   * under a backlog it is made at most every `dueLookupEveryMs`; a whole claim then comes
   * that soon, and looks again.
   */
  private async scheduleNextDue(): Promise<void> {
    const now = this.dependencies.now();
    if (now - this.lastDueLookupAt < dueLookupEveryMs) {
      this.wakeAt(this.lastDueLookupAt + dueLookupEveryMs);
      return;
    }
    this.lastDueLookupAt = now;
    this.wakeAt(await nextDeliveryDue(this.dependencies.store.db, this.heldByWebhook.atLimit(), this.heldByProject.atLimit()));
  }

  /**
   * Claims the due deliveries of webhooks that have room again, each through its own index
   * of due deliveries: a webhook with a backlog costs one short index range per claim, not a
   * walk past every pending delivery of the webhooks that are full.
   */
  private async claimForFreedWebhooks(): Promise<void> {
    const { store, settings } = this.dependencies;
    const webhooks = [...this.freedWebhooks];
    this.freedWebhooks.clear();
    const now = this.dependencies.now();
    const lease = { owner: this.owner, expiresAt: now + settings.leaseMs };
    const excludeProjects = this.heldByProject.atLimit();
    const wanted = webhooks.map((webhookId) => ({ webhookId, limit: Math.min(this.heldByWebhook.room(webhookId), this.capacity - this.held.size) })).filter((claim) => claim.limit > 0);
    if (wanted.length === 0) return;
    const claims = await store.transaction(async (trx) => {
      const results: { webhookId: string; limit: number; jobs: DeliveryJob[] }[] = [];
      for (const claim of wanted) {
        const claimed = await claimDueDeliveries(trx, store.capabilities, { ...lease, now, limit: claim.limit, webhookId: claim.webhookId, excludeProjects });
        results.push({ ...claim, jobs: await loadDeliveryJobs(trx, claimed) });
      }
      return results;
    }, { durable: false });
    await this.holdOrRelease(claims.flatMap((claim) => claim.jobs));
    // A webhook with fewer due than it had room for: wake when its next one comes due.
    for (const claim of claims) {
      if (claim.jobs.length >= claim.limit) continue;
      this.caughtUp.add(claim.webhookId);
      this.wakeAt(await nextWebhookDeliveryDue(store.db, claim.webhookId));
    }
  }

  /** Holds what fits this worker's shares and gives the rest back at once; starts sends. */
  private async holdOrRelease(jobs: readonly DeliveryJob[]): Promise<void> {
    const { store } = this.dependencies;
    // A webhook or project never holds more than its share: what is over it goes back at once, for
    // this worker or another to claim when one of its attempts ends.
    const over = jobs.filter((job) => !this.hold(job)).map((job) => job.deliveryId);
    if (over.length > 0) await releaseLeases(store.db, over, this.owner, this.dependencies.now());
    this.startSends();
  }

  /** For a fan-out: admits new deliveries to lease while their webhook and project have room here. */
  private admission(): (webhookId: string, projectId: string) => boolean {
    const byWebhook = new Map<string, number>();
    const byProject = new Map<string, number>();
    return (webhookId, projectId) => {
      const webhookCount = byWebhook.get(webhookId) ?? 0;
      const projectCount = byProject.get(projectId) ?? 0;
      if (webhookCount >= this.heldByWebhook.room(webhookId) || projectCount >= this.heldByProject.room(projectId)) return false;
      byWebhook.set(webhookId, webhookCount + 1);
      byProject.set(projectId, projectCount + 1);
      return true;
    };
  }

  /** Holds a claimed job; false when its webhook or its project already has as many as it may (the job is not held). */
  private hold(job: DeliveryJob): boolean {
    // Our own lease, taken again while its attempt is still queued or in flight.
    if (this.held.has(job.deliveryId)) return true;
    if (!this.heldByWebhook.hasRoom(job.webhookId) || !this.heldByProject.hasRoom(job.projectId)) return false;
    this.heldByWebhook.add(job.webhookId);
    this.heldByProject.add(job.projectId);
    this.held.add(job.deliveryId);
    this.sharing.add(job.deliveryId);
    this.queue.push(job);
    return true;
  }

  private unhold(job: DeliveryJob): void {
    this.leaveShare(job);
    this.held.delete(job.deliveryId);
  }

  /** The job's request is over: its webhook and project have room for another. */
  private leaveShare(job: DeliveryJob): void {
    if (!this.sharing.delete(job.deliveryId)) return;
    this.heldByWebhook.remove(job.webhookId);
    const projectFreed = this.heldByProject.remove(job.projectId);
    // A project at its limit may have due deliveries of any of its webhooks: a whole claim.
    if (projectFreed) return this.pump();
    // The webhook may have due deliveries that no claim could take while it was at its share:
    // claimed once half its share is done (so claims come in batches, not one per attempt),
    // unless its last claim of its own already found all it had due.
    if (this.heldByWebhook.isHalfEmpty(job.webhookId) && !this.caughtUp.has(job.webhookId) && !this.freedWebhooks.has(job.webhookId)) {
      this.freedWebhooks.add(job.webhookId);
      this.pump(false);
    }
  }

  private startSends(): void {
    const { settings, logger } = this.dependencies;
    while (!this.stopped && this.sending < settings.concurrency) {
      const job = this.queue.shift();
      if (!job) return;
      if (job.leaseExpiresAt - this.dependencies.now() < settings.timeoutMs + recordingAllowanceMs) {
        // Too late to finish within the lease: left to expire, then claimed again.
        logger.debug({ delivery: job.deliveryId }, 'lease too short to start an attempt; leaving it to expire');
        this.unhold(job);
        continue;
      }
      const goneAt = this.gone.get(job.webhookId);
      if (goneAt !== undefined && job.leaseExpiresAt - settings.leaseMs <= goneAt) {
        // Claimed before its webhook was disabled (which failed the delivery): not sent.
        this.unhold(job);
        continue;
      }
      this.sending += 1;
      const run = this.deliver(job)
        .catch((error: unknown) => logger.error({ err: error, delivery: job.deliveryId }, 'delivery attempt failed unexpectedly'))
        .finally(() => {
          this.running.delete(run);
          this.unhold(job);
        });
      this.running.add(run);
    }
  }

  private async deliver(job: DeliveryJob): Promise<void> {
    const { settings, box, mail, logger } = this.dependencies;
    let result: AttemptResult;
    try {
      result = await attemptDelivery(job, { sender: this.sender, mail, box, policy: settings.policy, now: this.dependencies.now });
    } finally {
      this.sending -= 1;
      this.startSends();
    }
    this.dependencies.onAttempt?.(result);
    const { record } = result;
    if (record.status === 'succeeded') this.struggling.delete(job.webhookId);
    else this.struggling.add(job.webhookId);
    this.leaveShare(job);
    const recorded = await this.recorder.record(record);
    if (this.waitingForRoom && this.held.size - 1 <= settings.concurrency) {
      this.waitingForRoom = false;
      this.pump();
    }
    if (!recorded) {
      logger.warn({ delivery: job.deliveryId, attempt: job.attempts + 1 }, 'attempt not recorded: its lease was taken over or recording failed');
      return;
    }
    if (record.disableWebhook !== null) {
      logger.warn({ webhook: job.webhookId, reason: record.disableWebhook }, 'webhook disabled');
      this.rememberGone(job.webhookId);
    }
    if (record.status === 'pending' && record.nextAttemptAt !== null) this.wakeAt(record.nextAttemptAt);
  }

  private rememberGone(webhookId: string): void {
    const now = this.dependencies.now();
    // Nothing claimed more than a lease ago is still queued.
    for (const [id, at] of this.gone) if (at < now - this.dependencies.settings.leaseMs) this.gone.delete(id);
    this.gone.set(webhookId, now);
  }

  /** Makes sure the worker wakes by `due` (never later than the safety poll). */
  private wakeAt(due: number | null): void {
    if (due === null || this.stopped) return;
    const now = this.dependencies.now();
    const at = Math.min(Math.max(due, now + minWaitMs), now + this.dependencies.settings.pollIntervalMs);
    if (at >= this.dueAt) return;
    if (this.dueTimer) clearTimeout(this.dueTimer);
    this.dueAt = at;
    this.dueTimer = setTimeout(() => {
      this.dueTimer = null;
      this.dueAt = Number.POSITIVE_INFINITY;
      this.pump();
    }, at - now);
    this.dueTimer.unref();
  }
}
