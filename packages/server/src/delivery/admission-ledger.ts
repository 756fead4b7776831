import { strict as assert } from 'node:assert';
import { Tally } from './tally.js';

/** A delivery's webhook and that webhook's project: the two keys every share is counted by. */
export interface ShareKey {
  readonly webhookId: string;
  readonly projectId: string;
}

export interface LedgerSettings {
  /** Requests in flight at once, in all (`--delivery-concurrency`). */
  readonly concurrency: number;
  /** Requests one webhook may have in flight (`--webhook-concurrency`); one while it is struggling. */
  readonly perWebhook: number;
  /** Requests the webhooks of one project may have in flight together (`--project-concurrency`). */
  readonly perProject: number;
  /** Deliveries held at once, in all: leased to this process, waiting for a slot or in flight. */
  readonly capacity: number;
  /** A webhook holds at most `depth` times its share, a project `depth` times its share. */
  readonly depth: number;
  /** A webhook leases ahead of its share only what its requests, at their recent duration, send within this. */
  readonly aheadHorizonMs: number;
}

/** A claim the loop should make: up to `limit` due deliveries of one webhook. */
export interface Refill extends ShareKey {
  readonly limit: number;
}

/** How much a new duration moves a webhook's typical request duration. */
const durationWeight = 0.2;

/**
 * Who may send and lease what in this process (docs/webhooks.md, "One slow receiver slows
 * nobody else"); pure, with no I/O and no clock:
 * - requests in flight: at most `concurrency` in all, a webhook's share (`perWebhook`, one
 *   while its last attempt failed: it is struggling) and a project's (`perProject`);
 * - deliveries held (leased here, waiting in the local queue or in flight): a webhook its
 *   share plus, ahead of it, what its requests send within `aheadHorizonMs` (nothing while
 *   it is slow, struggling or stalled; at most `depth` times its share in all); a project its
 *   share plus its webhooks' ahead (at most `depth` times its share); `capacity` in all, of
 *   which deliveries held ahead of their webhook's share take at most half;
 * - the backlog: webhooks believed to have due deliveries nobody holds. Such a webhook is
 *   refilled once half its holding is free, so claims come in batches; a claim that finds
 *   fewer than it asked for means it has caught up, and it leaves the backlog.
 */
export class AdmissionLedger {
  private readonly sending = new Tally();
  private readonly sendingByProject = new Tally();
  private readonly holding = new Tally();
  private readonly holdingByProject = new Tally();
  /** Deliveries held beyond their webhook's share (`perWebhook`), in all. */
  private aheadHeld = 0;
  /** The webhooks of each project that have been timed, whose ahead its holding may include. */
  private readonly timedByProject = new Map<string, Set<string>>();
  private readonly struggling = new Set<string>();
  private readonly typicalMs = new Map<string, number>();
  private readonly backlog = new Map<string, string>();
  private readonly backlogByProject = new Tally();

  constructor(private readonly settings: LedgerSettings) {}

  /** Requests in flight, in all. */
  get inFlight(): number {
    return this.sending.total;
  }

  /** Deliveries held, in all. */
  get held(): number {
    return this.holding.total;
  }

  /** Whether a held delivery of `key` may start its request now. */
  mayStart({ webhookId, projectId }: ShareKey): boolean {
    return (
      this.sending.total < this.settings.concurrency &&
      this.sending.get(webhookId) < this.share(webhookId) &&
      this.sendingByProject.get(projectId) < this.settings.perProject
    );
  }

  started(key: ShareKey): void {
    assert.ok(this.holding.get(key.webhookId) > this.sending.get(key.webhookId), 'a request starts for a held delivery');
    assert.ok(this.mayStart(key), 'a request starts only within its shares');
    this.sending.add(key.webhookId);
    this.sendingByProject.add(key.projectId);
  }

  /** A request is over: its slot and its holding are free (recording it holds neither). */
  ended(key: ShareKey): void {
    assert.ok(this.sending.get(key.webhookId) > 0, 'a request ends after it started');
    this.sending.remove(key.webhookId);
    this.sendingByProject.remove(key.projectId);
    this.release(key);
  }

  /** A delivery leased to this process. */
  hold({ webhookId, projectId }: ShareKey): void {
    this.holding.add(webhookId);
    this.holdingByProject.add(projectId);
    if (this.holding.get(webhookId) > this.settings.perWebhook) this.aheadHeld += 1;
  }

  /** A held delivery left without a request: given back, dropped or left to its lease. */
  release({ webhookId, projectId }: ShareKey): void {
    assert.ok(this.holding.get(webhookId) > 0, 'only a held delivery is released');
    if (this.holding.get(webhookId) > this.settings.perWebhook) this.aheadHeld -= 1;
    this.holding.remove(webhookId);
    this.holdingByProject.remove(projectId);
  }

  /** Requests one webhook may have in flight now. */
  share(webhookId: string): number {
    return this.struggling.has(webhookId) ? 1 : this.settings.perWebhook;
  }

  /** Deliveries one webhook may hold now: its share, and ahead of it what its requests use soon. */
  holdLimit(webhookId: string): number {
    return this.struggling.has(webhookId) ? 1 : this.settings.perWebhook + this.ahead(webhookId);
  }

  /** How many more deliveries of `key` this process may hold now. */
  holdRoom({ webhookId, projectId }: ShareKey): number {
    // What it holds beyond its share also counts against the half of the capacity for that.
    const withinShare = Math.max(0, this.settings.perWebhook - this.holding.get(webhookId));
    const aheadRoom = Math.max(0, this.settings.capacity / 2 - this.aheadHeld);
    return Math.max(0, Math.min(this.webhookRoom(webhookId), this.projectRoom(projectId), this.capacityRoom(), withinShare + aheadRoom));
  }

  /** How many of a webhook's waiting deliveries to give back: what it holds beyond its limit. */
  overHolding(webhookId: string): number {
    return Math.max(0, this.holding.get(webhookId) - Math.max(this.holdLimit(webhookId), this.sending.get(webhookId)));
  }

  /**
   * An attempt of the webhook ended: a failure makes it struggling (one request, one held
   * delivery) until one succeeds; its duration moves the typical one, which sets how far
   * ahead the webhook leases.
   */
  attempted({ webhookId, projectId }: ShareKey, outcome: { readonly succeeded: boolean; readonly durationMs: number }): void {
    if (outcome.succeeded) this.struggling.delete(webhookId);
    else this.struggling.add(webhookId);
    const typical = this.typicalMs.get(webhookId);
    this.typicalMs.set(webhookId, typical === undefined ? outcome.durationMs : typical + durationWeight * (outcome.durationMs - typical));
    const timed = this.timedByProject.get(projectId);
    if (timed) timed.add(webhookId);
    else this.timedByProject.set(projectId, new Set([webhookId]));
  }

  /** A delivery of the webhook waited `waitedMs` for a slot: its requests are slow now; it stops leasing ahead. */
  stalled(webhookId: string, waitedMs: number): void {
    this.typicalMs.set(webhookId, Math.max(this.typicalMs.get(webhookId) ?? 0, waitedMs));
  }

  /** The webhook has due deliveries that nobody holds (a fan-out left some, or a lookup found some). */
  addBacklog({ webhookId, projectId }: ShareKey): void {
    if (this.backlog.has(webhookId)) return;
    this.backlog.set(webhookId, projectId);
    this.backlogByProject.add(projectId);
  }

  /** A claim for the webhook found fewer than it asked for: nothing more is due. */
  caughtUp(webhookId: string): void {
    const projectId = this.backlog.get(webhookId);
    if (projectId === undefined) return;
    this.backlog.delete(webhookId);
    this.backlogByProject.remove(projectId);
  }

  hasBacklog(webhookId: string): boolean {
    return this.backlog.has(webhookId);
  }

  /**
   * After a holding of `key` ended: whether a claim could now take more (the webhook is in
   * the backlog and half its holding is free, or its project or this process was full and
   * has room again for a webhook of the backlog).
   */
  wantsRefill({ webhookId, projectId }: ShareKey): boolean {
    const capacityRoom = this.capacityRoom();
    if (capacityRoom <= 0 || this.backlog.size === 0) return false;
    if (this.backlog.has(webhookId) && this.webhookRoom(webhookId) >= this.refillAt(webhookId) && this.projectRoom(projectId) > 0) return true;
    const othersOfProject = this.backlogByProject.get(projectId) - (this.backlog.has(webhookId) ? 1 : 0);
    if (this.projectRoom(projectId) === 1 && othersOfProject > 0) return true;
    return capacityRoom === 1;
  }

  /**
   * The claims to make now: each webhook of the backlog whose holding is at least half free,
   * up to its room, fewest held first, within its project's room and this process's.
   */
  refills(): Refill[] {
    let capacityRoom = this.capacityRoom();
    const plan: Refill[] = [];
    if (capacityRoom <= 0) return plan;
    const projectRooms = new Map<string, number>();
    const candidates = [...this.backlog]
      .filter(([webhookId]) => this.webhookRoom(webhookId) >= this.refillAt(webhookId))
      .sort(([a], [b]) => this.holding.get(a) - this.holding.get(b));
    for (const [webhookId, projectId] of candidates) {
      const projectRoom = projectRooms.get(projectId) ?? this.projectRoom(projectId);
      const limit = Math.min(this.webhookRoom(webhookId), projectRoom, capacityRoom);
      if (limit <= 0) continue;
      plan.push({ webhookId, projectId, limit });
      projectRooms.set(projectId, projectRoom - limit);
      capacityRoom -= limit;
      if (capacityRoom <= 0) break;
    }
    return plan;
  }

  /** How many deliveries a webhook may hold ahead of its share: what its requests send within the horizon. */
  private ahead(webhookId: string): number {
    const typical = this.typicalMs.get(webhookId);
    if (typical === undefined || this.struggling.has(webhookId)) return 0;
    const share = this.settings.perWebhook;
    return Math.min(share * (this.settings.depth - 1), Math.floor((share * this.settings.aheadHorizonMs) / Math.max(typical, 1)));
  }

  /** A webhook is refilled once at least half its holding is free. */
  private refillAt(webhookId: string): number {
    return Math.max(1, Math.floor(this.holdLimit(webhookId) / 2));
  }

  private webhookRoom(webhookId: string): number {
    return this.holdLimit(webhookId) - this.holding.get(webhookId);
  }

  /** A project holds its share, and ahead of it what its webhooks hold ahead of theirs. */
  private projectRoom(projectId: string): number {
    const { perProject, depth } = this.settings;
    let ahead = 0;
    for (const webhookId of this.timedByProject.get(projectId) ?? []) ahead += this.ahead(webhookId);
    return perProject + Math.min(perProject * (depth - 1), ahead) - this.holdingByProject.get(projectId);
  }

  private capacityRoom(): number {
    return this.settings.capacity - this.holding.total;
  }
}
