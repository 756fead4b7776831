import { isIP } from 'node:net';
import { ipaddr } from './ipaddr.js';

/** What rate limits count of a client address (docs/server.md, "Running behind a proxy"). */
export interface LimitedAddress {
  /** The address for IPv4 (and anything that is not IPv6), its /64 for IPv6: one subscriber's network. */
  readonly client: string;
  /** For IPv6, the /48 around the /64 (one site's allocation); null otherwise. */
  readonly network: string | null;
  /** For IPv6, which /64 of its /48 this is (0 to 65,535); 0 otherwise. */
  readonly subnet: number;
}

/**
 * The address for IPv4, its /64 for IPv6 (counting single IPv6 addresses would let one
 * client use 2^64 of them), with the /48 it is in. Always at most 45 characters each.
 */
export function limitedAddress(address: string): LimitedAddress {
  if (isIP(address) !== 6) return { client: address, network: null, subnet: 0 };
  const [a, b, c, d] = ipaddr.IPv6.parse(address).parts.map((part) => part.toString(16));
  return { client: `${a}:${b}:${c}:${d}::/64`, network: `${a}:${b}:${c}::/48`, subnet: parseInt(d!, 16) };
}
