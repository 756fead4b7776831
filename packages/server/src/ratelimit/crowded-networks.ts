import type { LimitedAddress } from '../net/limited-address.js';
import { type Recent, RecencyMap } from './recency-map.js';

/** How many distinct /64s of one /48 one scope takes within a window before that /48 counts as one client. */
export const defaultFoldAfter = 64;

interface SeenNetwork extends Recent {
  /** When this window of watching the network ends. */
  readonly watchedUntil: number;
  /** The distinct /64s (their 16 bits within the /48) seen in this window, up to one past the threshold. */
  readonly subnets: number[];
  /** Until when the whole /48 counts as one client. */
  foldedUntil: number;
}

/**
 * The IPv6 rule of the rate limits (docs/server.md, "Running behind a proxy"): a client is
 * its /64, but once more than `foldAfter` distinct /64s of one /48 have been counted in one
 * scope (a form, a project's Pinpoints, failed authentications) within one window of its
 * policy, that /48 is counted there as one client, for a window from then, renewed while
 * the crowd keeps coming. A /48 is one site's allocation: one attacker gets 65,536 /64s
 * with it, while another form or project, and other networks, are not affected.
 *
 * Bounded like the windows: at most `capacity` networks are watched, the one seen least
 * recently is forgotten first, and each answer costs one map lookup and a scan of at most
 * `foldAfter + 1` small numbers.
 */
export class CrowdedNetworks {
  private readonly seen: RecencyMap<SeenNetwork>;

  constructor(
    capacity: number,
    private readonly foldAfter = defaultFoldAfter,
  ) {
    this.seen = new RecencyMap(capacity, (network, now) => network.watchedUntil <= now && network.foldedUntil <= now);
  }

  get size(): number {
    return this.seen.size;
  }

  /**
   * What a request of `address` counts under in `scope`: its own `client`, or its /48 while
   * that network is crowded there. `record` adds its /64 to what was seen (a request being
   * counted), a peek does not.
   */
  counted(scope: string, address: LimitedAddress, windowMs: number, record: boolean, now: number): string {
    if (address.network === null) return address.client;
    const id = `${scope}|${address.network}`;
    const seen = record ? this.record(id, address.subnet, windowMs, now) : this.seen.peek(id);
    return seen !== undefined && seen.foldedUntil > now ? address.network : address.client;
  }

  private record(id: string, subnet: number, windowMs: number, now: number): SeenNetwork {
    let seen = this.seen.use(id);
    if (seen === undefined || seen.watchedUntil <= now) {
      seen = { watchedUntil: now + windowMs, subnets: [], foldedUntil: seen?.foldedUntil ?? 0, used: false };
      this.seen.put(id, seen, now);
    }
    if (seen.subnets.length <= this.foldAfter && !seen.subnets.includes(subnet)) {
      seen.subnets.push(subnet);
      if (seen.subnets.length > this.foldAfter) seen.foldedUntil = now + windowMs;
    }
    return seen;
  }
}
