import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { randomToken } from '../lib/ids.js';
import { releaseLeases } from '../store/queries/claim-deliveries.js';
import type { DeliveryJob } from '../store/queries/delivery-jobs.js';
import type { Store } from '../store/store.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { AdmissionLedger } from './admission-ledger.js';
import type { AttemptResult, MailDelivery } from './attempt-delivery.js';
import { AttemptRecorder } from './attempt-recorder.js';
import { ClaimLoop } from './claim-loop.js';
import { DeliverySender } from './delivery-sender.js';
import type { DeliverySettings } from './delivery-settings.js';
import { HttpSender } from './http-sender.js';
import { LocalQueue } from './local-queue.js';

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

/** Deliveries held at once (waiting or in flight), per request slot. */
const heldPerSlot = 2;
/** A webhook holds at most this many times its share (docs/webhooks.md). */
const leaseDepth = 8;
/** A webhook leases ahead of its share what its requests send within this. */
const aheadHorizonMs = 100;
/** A delivery that waited this long for a slot goes back, and its webhook stops leasing ahead. */
const stalledAfterMs = 1_000;
/** An attempt starts only if its lease outlasts the timeout by this much, leaving time to record it. */
const recordingAllowanceMs = 500;

/**
 * Turns outbox events into deliveries and sends them (docs/webhooks.md, "Delivery"). Three
 * parts: the claim loop leases work (fan-out, discovery, refills), the admission ledger says
 * what may be held and sent, and the sender attempts and records one delivery. Between them,
 * the local queue holds leased deliveries until the ledger lets them start.
 */
export class DeliveryWorker {
  /** This worker's lease owner name: host, process and a random part, unique per start. */
  readonly owner = `${hostname()}/${process.pid}/${randomToken(40)}`;
  private readonly ledger: AdmissionLedger;
  private readonly queue = new LocalQueue();
  private readonly loop: ClaimLoop;
  private readonly http: HttpSender;
  private readonly recorder: AttemptRecorder;
  private readonly sender: DeliverySender;
  private readonly reportFailure: (error: unknown, context: string) => void;
  /** Attempts in flight or being recorded, and leases being given back. */
  private readonly running = new Set<Promise<void>>();
  /** Webhooks this worker saw answer 410 Gone, and when: their deliveries claimed before are not sent. */
  private readonly gone = new Map<string, number>();
  private stopped = false;
  private timers: NodeJS.Timeout[] = [];
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly dependencies: DeliveryWorkerDependencies) {
    const { store, settings, now } = dependencies;
    this.reportFailure = dependencies.reportFailure ?? ((error, context) => dependencies.logger.error({ err: error }, context));
    this.ledger = new AdmissionLedger({ ...settings, capacity: heldPerSlot * settings.concurrency, depth: leaseDepth, aheadHorizonMs });
    this.loop = new ClaimLoop({
      store,
      ledger: this.ledger,
      owner: this.owner,
      leaseMs: settings.leaseMs,
      eventBatch: settings.eventBatch,
      pollIntervalMs: settings.pollIntervalMs,
      now,
      leased: (jobs) => {
        this.queue.add(jobs, now());
        this.startSends();
      },
      reportFailure: this.reportFailure,
    });
    this.http = new HttpSender(settings, now);
    this.recorder = new AttemptRecorder(store, this.reportFailure, now);
    this.sender = new DeliverySender({ sender: this.http, mail: dependencies.mail, box: dependencies.box, policy: settings.policy, now, record: (record) => this.recorder.record(record) });
  }

  start(): void {
    const everything = { events: true, discover: true };
    this.unsubscribe = this.dependencies.store.signals.events.on(() => this.loop.wake(everything));
    this.timers = [setInterval(() => this.loop.wake(everything), this.dependencies.settings.pollIntervalMs), setInterval(() => this.giveBackStalled(), stalledAfterMs / 2)];
    for (const timer of this.timers) timer.unref();
    this.loop.wake(everything);
  }

  /**
   * Claims nothing more, gives back the leases of deliveries not yet started, lets the
   * attempts in flight finish and be recorded, then closes connections.
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.unsubscribe?.();
    for (const timer of this.timers) clearInterval(timer);
    await this.loop.stop();
    const unsent = this.queue.takeAll();
    for (const job of unsent) this.ledger.release(job);
    await this.returnLeases(unsent).catch((error: unknown) => this.dependencies.logger.warn({ err: error }, 'could not give back unused delivery leases; they expire on their own'));
    this.recorder.stopRetrying();
    await Promise.allSettled([...this.running]);
    await this.recorder.drain();
    await this.http.close();
  }

  /** Starts what the ledger lets start, in turns across webhooks. */
  private startSends(): void {
    if (this.stopped) return;
    const { settings } = this.dependencies;
    const late: DeliveryJob[] = [];
    this.queue.offer(
      (job) => {
        if (this.tooLate(job)) {
          late.push(job);
          return true;
        }
        if (!this.ledger.mayStart(job)) return false;
        this.deliver(job);
        return true;
      },
      () => !this.stopped && this.ledger.inFlight < settings.concurrency,
    );
    this.giveBack(late, 'their lease would end during the attempt');
  }

  /**
   * Whether a waiting delivery must not be sent now: its lease would end during the attempt
   * (it goes back, to be claimed again), or its webhook answered 410 since its claim.
   */
  private tooLate(job: DeliveryJob): boolean {
    const { settings, now, logger } = this.dependencies;
    if (job.leaseExpiresAt - now() < settings.timeoutMs + recordingAllowanceMs) {
      logger.debug({ delivery: job.deliveryId }, 'lease too short to start an attempt; giving it back');
      return true;
    }
    const goneAt = this.gone.get(job.webhookId);
    // Claimed before its webhook was disabled (which failed the delivery): not sent.
    return goneAt !== undefined && job.leaseExpiresAt - settings.leaseMs <= goneAt;
  }

  private deliver(job: DeliveryJob): void {
    const { logger, onAttempt } = this.dependencies;
    this.ledger.started(job);
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      this.ledger.ended(job);
      this.holdingEnded(job);
    };
    const run = this.sender
      .send(job, (result) => {
        // The request is over: the slot is free before the attempt is recorded.
        const succeeded = result.record.status === 'succeeded';
        this.ledger.attempted(job, { succeeded, durationMs: result.outcome.durationMs });
        // A failure: one at a time from now on, the rest goes back. (A slower success only lowers what is claimed next.)
        if (!succeeded) this.giveBackOver(job.webhookId, 'its webhook is struggling');
        end();
        onAttempt?.(result);
      })
      .then(({ result, recorded }) => this.afterRecord(job, result, recorded))
      .catch((error: unknown) => logger.error({ err: error, delivery: job.deliveryId }, 'delivery attempt failed unexpectedly'))
      .finally(() => {
        end();
        this.running.delete(run);
      });
    this.running.add(run);
  }

  private afterRecord(job: DeliveryJob, { record }: AttemptResult, recorded: boolean): void {
    const { logger } = this.dependencies;
    if (!recorded) {
      logger.warn({ delivery: job.deliveryId, attempt: job.attempts + 1 }, 'attempt not recorded: its lease was taken over or recording failed');
      return;
    }
    if (record.disableWebhook !== null) {
      logger.warn({ webhook: job.webhookId, reason: record.disableWebhook }, 'webhook disabled');
      this.rememberGone(job.webhookId);
    }
    if (record.status === 'pending' && record.nextAttemptAt !== null) this.loop.wakeAt(record.nextAttemptAt);
  }

  /** A holding ended: start what may start now, and refill the backlog if there is room. */
  private holdingEnded(job: DeliveryJob): void {
    this.startSends();
    if (this.ledger.wantsRefill(job)) this.loop.wake({ refill: true });
  }

  /** Gives back what a webhook holds beyond its limit (it turned struggling, or stalled), the last due first. */
  private giveBackOver(webhookId: string, reason: string): void {
    const over = this.ledger.overHolding(webhookId);
    if (over > 0) this.giveBack(this.queue.takeLast(webhookId, over), reason);
  }

  /** Deliveries waiting too long for a slot go back, and their webhook stops leasing ahead (docs/webhooks.md). */
  private giveBackStalled(): void {
    const now = this.dependencies.now();
    for (const { webhookId, waitedMs } of this.queue.stalled(now - stalledAfterMs, now)) {
      this.ledger.stalled(webhookId, waitedMs);
      this.giveBackOver(webhookId, `one waited ${waitedMs} ms for a slot`);
    }
  }

  /** Gives leases back, so that any worker (this one too) can claim them at once. */
  private giveBack(jobs: readonly DeliveryJob[], reason: string): void {
    if (jobs.length === 0) return;
    const { store, logger } = this.dependencies;
    logger.debug({ webhook: jobs[0]!.webhookId, deliveries: jobs.length, reason }, 'giving delivery leases back');
    for (const job of jobs) this.ledger.release(job);
    const returned = this.returnLeases(jobs)
      .then(() => store.signals.events.announce())
      .catch((error: unknown) => logger.warn({ err: error }, 'could not give back delivery leases; they expire on their own'))
      .finally(() => this.running.delete(returned));
    this.running.add(returned);
  }

  /** Committed without an fsync: a lease given back and then lost in a power cut just runs out. */
  private returnLeases(jobs: readonly DeliveryJob[]): Promise<void> {
    const { store, now } = this.dependencies;
    const ids = jobs.map((job) => job.deliveryId);
    if (ids.length === 0) return Promise.resolve();
    return store.transaction((trx) => releaseLeases(trx, ids, this.owner, now()), { durable: false });
  }

  private rememberGone(webhookId: string): void {
    const now = this.dependencies.now();
    // Nothing claimed more than a lease ago is still waiting.
    for (const [id, at] of this.gone) if (at < now - this.dependencies.settings.leaseMs) this.gone.delete(id);
    this.gone.set(webhookId, now);
    for (const job of this.queue.takeWebhook(webhookId)) this.ledger.release(job);
  }
}
