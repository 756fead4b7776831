import { createHmac, hkdfSync } from 'node:crypto';
import { limitedAddress } from '../net/limited-address.js';
import { CrowdedNetworks, defaultFoldAfter } from './crowded-networks.js';

/** A client of a rate limit: its address, within a scope (a form, a project's Pinpoints, authentication). */
export interface RateLimitedClient {
  readonly scope: string;
  readonly address: string;
}

/** Hashes remembered at once; past it the memory starts over (a flood of addresses hashes each once anyway). */
const rememberedHashes = 4_096;

/**
 * The secret of the address hashes, derived from the server's encryption key: instances
 * that share a database or Redis share that key (docs/server.md), so they count the same
 * client under the same key, and counts survive a restart.
 */
export function clientKeySecret(encryptionKey: Uint8Array): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', encryptionKey, new Uint8Array(0), 'svc rate-limit client keys', 32));
}

/**
 * The key a rate limit counts a client under: its scope, then a keyed hash (HMAC-SHA-256,
 * 128 bits) of what is counted of its address: the IPv4 address, the IPv6 /64, or the /48
 * of a crowded network (crowded-networks.ts). No address is in a key, so none reaches the
 * `rate_limits` snapshots or Redis (docs/privacy.md); the secret keeps the small IPv4 space
 * from being hashed through.
 */
export class ClientKeys {
  private readonly crowded: CrowdedNetworks;
  private readonly hashes = new Map<string, string>();

  constructor(
    private readonly secret: Uint8Array,
    capacity: number,
    foldAfter = defaultFoldAfter,
  ) {
    this.crowded = new CrowdedNetworks(capacity, foldAfter);
  }

  /** `record`: whether the request is being counted (it then adds to what a crowded network is judged by). */
  key(client: RateLimitedClient, windowSeconds: number, record: boolean, now: number): string {
    const counted = this.crowded.counted(client.scope, limitedAddress(client.address), windowSeconds * 1000, record, now);
    return `${client.scope}|${this.hash(counted)}`;
  }

  private hash(text: string): string {
    let hashed = this.hashes.get(text);
    if (hashed === undefined) {
      if (this.hashes.size >= rememberedHashes) this.hashes.clear();
      hashed = createHmac('sha256', this.secret).update(text).digest('base64url').slice(0, 22);
      this.hashes.set(text, hashed);
    }
    return hashed;
  }
}
