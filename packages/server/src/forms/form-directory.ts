import { findFormByEndpointId, type ResolvedForm } from '../store/queries/forms.js';
import type { Store } from '../store/store.js';

/**
 * What an endpoint id can look like (they are base32, see ids.ts); anything else is unknown
 * without asking the database, which may refuse some bytes outright (PostgreSQL: NUL).
 */
const possibleEndpointId = /^[0-9A-Za-z_-]{1,200}$/;

/**
 * Endpoint id → form, cached for a few seconds so the hot path does not query the
 * database on every submission. Changes made through this process invalidate at once;
 * other instances see them within `ttlMs`.
 */
export class FormDirectory {
  private readonly cache = new Map<string, { form: ResolvedForm | null; expires: number }>();

  constructor(
    private readonly store: Pick<Store, 'db'>,
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  async resolve(endpointId: string): Promise<ResolvedForm | null> {
    if (!possibleEndpointId.test(endpointId)) return null;
    const now = Date.now();
    const cached = this.cache.get(endpointId);
    if (cached && cached.expires > now) return cached.form;
    const form = await findFormByEndpointId(this.store.db, endpointId);
    if (this.cache.size >= this.maxEntries) this.cache.clear();
    // Unknown ids are remembered briefly too, so probing them stays cheap.
    this.cache.set(endpointId, { form, expires: now + (form ? this.ttlMs : Math.min(this.ttlMs, 1_000)) });
    return form;
  }

  invalidate(): void {
    this.cache.clear();
  }
}
