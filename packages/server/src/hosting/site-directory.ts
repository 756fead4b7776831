import type { Store } from '../store/store.js';
import { lookUpSite, type HostedTarget } from './hosted-sites.js';

/** Hostnames held at once, sites and not-sites alike (most recently looked up). */
const maxHeldHostnames = 10_000;
/** A safety net under the change notifications: no answer is reused for longer than this. */
const maxHeldMs = 60_000;

/**
 * What each hostname serves, held in memory so that a hosted request needs no query
 * (docs/hosting.md). Every change to it (a push that changes domains, a deploy going live,
 * a promote or rollback) is announced after its commit, here and to every other instance
 * (PostgreSQL NOTIFY), and everything held is forgotten at once. While another instance's
 * announcements could go unheard (the listening connection is down), every request looks
 * its hostname up as before.
 */
export class SiteDirectory {
  private readonly held = new Map<string, { target: HostedTarget | null; at: number }>();
  /** Bumped by every change: a lookup that began before one must not be held after it. */
  private generation = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly store: Pick<Store, 'db' | 'onSitesChanged' | 'hearsSiteChanges'>,
    private readonly previewDomain: string,
    private readonly now: () => number = Date.now,
  ) {
    this.unsubscribe = store.onSitesChanged(() => this.forget());
  }

  async resolve(hostname: string): Promise<HostedTarget | null> {
    const now = this.now();
    const entry = this.held.get(hostname);
    if (entry && now - entry.at < maxHeldMs && this.store.hearsSiteChanges()) return entry.target;
    const generation = this.generation;
    const target = await lookUpSite(this.store.db, hostname, this.previewDomain);
    if (generation === this.generation && this.store.hearsSiteChanges()) {
      this.held.delete(hostname);
      this.held.set(hostname, { target, at: now });
      if (this.held.size > maxHeldHostnames) this.held.delete(this.held.keys().next().value!);
    }
    return target;
  }

  forget(): void {
    this.generation += 1;
    this.held.clear();
  }

  close(): void {
    this.unsubscribe();
  }
}
