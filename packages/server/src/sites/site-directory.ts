import type { Store } from '../store/store.js';
import { HeldUntilAnnounced } from '../lib/held-until-announced.js';
import { lookUpSite, type HostedTarget } from './hosted-sites.js';

/**
 * What each hostname serves, held in memory so that a hosted request needs no query
 * (docs/hosting.md). Every change to it (a push that changes domains, a deploy going live,
 * a promote or rollback) is announced after its commit, here and to every other instance
 * (PostgreSQL NOTIFY), and everything held is forgotten at once. While another instance's
 * announcements could go unheard (the listening connection is down), every request looks
 * its hostname up as before. Hostnames that are not sites are held too.
 */
export class SiteDirectory {
  private readonly held: HeldUntilAnnounced<HostedTarget | null>;

  constructor(
    private readonly store: Pick<Store, 'db' | 'signals'>,
    private readonly previewDomain: string,
    now: () => number = Date.now,
  ) {
    this.held = new HeldUntilAnnounced(store.signals.sites, { maxEntries: 10_000, maxAgeMs: 60_000, unheardMaxAgeMs: 0 }, now);
  }

  resolve(hostname: string): Promise<HostedTarget | null> {
    return this.held.get(hostname, () => lookUpSite(this.store.db, hostname, this.previewDomain));
  }

  close(): void {
    this.held.close();
  }
}
