import type { DeliveryJob } from '../store/queries/delivery-jobs.js';

interface Waiting {
  readonly job: DeliveryJob;
  /** When it joined the queue. */
  readonly since: number;
}

/**
 * Deliveries leased to this process that wait for a request slot: per webhook, in due
 * order, taken in turns across webhooks. Like graphile-worker's local queue, it lets claims
 * come in batches of tens while requests stay bounded by the shares (the ledger says which
 * may start); the worker gives back what waits too long (`stalled`).
 */
export class LocalQueue {
  private readonly byWebhook = new Map<string, Waiting[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  add(jobs: readonly DeliveryJob[], now: number): void {
    for (const job of jobs) {
      const waiting = this.byWebhook.get(job.webhookId);
      if (waiting) waiting.push({ job, since: now });
      else this.byWebhook.set(job.webhookId, [{ job, since: now }]);
    }
    this.count += jobs.length;
  }

  /**
   * Offers each webhook's first waiting delivery to `take` in turns (a webhook that gave one
   * goes to the back), until a round of offers takes none or `more()` says stop. `take`
   * returns true when it took the delivery off the queue (started or dropped it).
   */
  offer(take: (job: DeliveryJob) => boolean, more: () => boolean): void {
    if (this.byWebhook.size === 1) return this.offerOne(take, more);
    let taken = true;
    while (taken && this.count > 0 && more()) {
      taken = false;
      for (const [webhookId, waiting] of [...this.byWebhook]) {
        if (!more()) return;
        if (!take(waiting[0]!.job)) continue;
        taken = true;
        waiting.shift();
        this.count -= 1;
        // To the back of the turn, or out when it has nothing left.
        this.byWebhook.delete(webhookId);
        if (waiting.length > 0) this.byWebhook.set(webhookId, waiting);
      }
    }
  }

  /** `offer` when one webhook waits: no turns to take. */
  private offerOne(take: (job: DeliveryJob) => boolean, more: () => boolean): void {
    const [webhookId, waiting] = this.byWebhook.entries().next().value as [string, Waiting[]];
    while (waiting.length > 0 && more() && take(waiting[0]!.job)) {
      waiting.shift();
      this.count -= 1;
    }
    if (waiting.length === 0) this.byWebhook.delete(webhookId);
  }

  /** Takes up to `count` of a webhook's waiting deliveries, the last due first. */
  takeLast(webhookId: string, count: number): DeliveryJob[] {
    const waiting = this.byWebhook.get(webhookId);
    if (!waiting || count <= 0) return [];
    const taken = waiting.splice(Math.max(0, waiting.length - count)).map((entry) => entry.job);
    if (waiting.length === 0) this.byWebhook.delete(webhookId);
    this.count -= taken.length;
    return taken;
  }

  /** Every waiting delivery of a webhook. */
  takeWebhook(webhookId: string): DeliveryJob[] {
    return this.takeLast(webhookId, Number.POSITIVE_INFINITY);
  }

  /** Every waiting delivery. */
  takeAll(): DeliveryJob[] {
    return [...this.byWebhook.keys()].flatMap((webhookId) => this.takeWebhook(webhookId));
  }

  /** The webhooks whose first waiting delivery joined before `before`, with how long it waited by `now`. */
  stalled(before: number, now: number): { webhookId: string; waitedMs: number }[] {
    const stalled: { webhookId: string; waitedMs: number }[] = [];
    for (const [webhookId, waiting] of this.byWebhook) if (waiting[0]!.since < before) stalled.push({ webhookId, waitedMs: now - waiting[0]!.since });
    return stalled;
  }
}
