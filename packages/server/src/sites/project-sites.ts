import { HeldUntilAnnounced } from '../lib/held-until-announced.js';
import { listProjectDomains } from '../store/queries/domains.js';
import type { Store } from '../store/store.js';
import { normalizeHostname, type ProjectDomain } from './page-origin.js';

export interface ProjectSitesOptions {
  /** Projects held at once (the oldest go first). */
  readonly maxEntries: number;
  /** While other instances' announcements could go unheard, a project's domains are used this long. */
  readonly unheardMaxAgeMs: number;
}

/**
 * A project's domains, each with its environment, read once and held until a change to
 * what hosting serves is announced (`Store.signals.sites`: a push that changes domains),
 * so that the form endpoint and the widget ask no query per request. The one place the
 * hot paths read a project's hostnames.
 */
export class ProjectSites {
  private readonly held: HeldUntilAnnounced<readonly ProjectDomain[]>;

  constructor(
    private readonly store: Pick<Store, 'db' | 'signals'>,
    options: ProjectSitesOptions,
  ) {
    this.held = new HeldUntilAnnounced(store.signals.sites, { maxEntries: options.maxEntries, maxAgeMs: 60_000, unheardMaxAgeMs: options.unheardMaxAgeMs });
  }

  domains(projectId: string): Promise<readonly ProjectDomain[]> {
    return this.held.get(projectId, async () => (await listProjectDomains(this.store.db, projectId)).map((domain) => ({ hostname: normalizeHostname(domain.hostname), environment: domain.environment })));
  }

  async hostnames(projectId: string): Promise<readonly string[]> {
    return (await this.domains(projectId)).map((domain) => domain.hostname);
  }

  close(): void {
    this.held.close();
  }
}
