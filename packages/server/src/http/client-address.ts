import { isIP } from 'node:net';
import { parseBoolean } from '@svc/protocol';
import { ipaddr, type IpAddress as Address } from '../net/ipaddr.js';

/**
 * Which peers may speak for the client in `x-forwarded-for` (docs/server.md, "Running
 * behind a proxy"): nobody, the nearest `hops` proxies, or peers inside the named networks.
 */
export type ProxyTrust =
  | { readonly kind: 'none' }
  | { readonly kind: 'hops'; readonly hops: number }
  | { readonly kind: 'networks'; readonly networks: readonly (readonly [Address, number])[] };

export const noProxyTrust: ProxyTrust = { kind: 'none' };

const namedNetworks: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/**
 * `--trust-proxy`'s value: a boolean as every switch takes it (`true` alone trusts the
 * directly connected peer, `false` nobody), a number that many hops, or a comma-separated
 * list of addresses, CIDRs or `loopback`, `linklocal`, `uniquelocal`: the peers inside them.
 */
export function parseProxyTrust(text: string): ProxyTrust {
  const value = text.trim().toLowerCase();
  if (/^(|true|false|yes|no|on|off)$/.test(value)) return parseBoolean(value) ? { kind: 'hops', hops: 1 } : noProxyTrust;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 32) throw new Error('a hop count must be from 0 to 32');
    return hops === 0 ? noProxyTrust : { kind: 'hops', hops };
  }
  const networks: (readonly [Address, number])[] = [];
  for (const part of value.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '')) {
    for (const spelled of namedNetworks[part] ?? [part]) networks.push(parseNetwork(spelled));
  }
  if (networks.length === 0) throw new Error('must be a hop count or a list of addresses or CIDRs');
  return { kind: 'networks', networks };
}

function parseNetwork(text: string): readonly [Address, number] {
  try {
    if (text.includes('/')) {
      const [address, bits] = ipaddr.parseCIDR(text);
      return [address, bits];
    }
    const address = ipaddr.parse(text);
    return [address, address.kind() === 'ipv4' ? 32 : 128];
  } catch {
    throw new Error(`"${text}" is not an IP address, a CIDR, loopback, linklocal or uniquelocal`);
  }
}

/** An address as the rest of the server keys it: IPv4-mapped IPv6 unwrapped, canonical text; null when it is not an IP address. */
export function canonicalAddress(text: string | undefined): string | null {
  if (text === undefined) return null;
  const trimmed = text.trim();
  // 45 characters hold the longest IPv6 spelling with an IPv4 tail; anything longer is not an address.
  if (trimmed.length === 0 || trimmed.length > 45 || isIP(trimmed) === 0) return null;
  return ipaddr.process(trimmed).toString();
}

/** Whether `address` (canonical) may be a proxy that speaks for clients: with a hop count, any peer may. */
export function mayBeTrustedProxy(address: string, trust: ProxyTrust): boolean {
  return isTrusted(address, 0, trust);
}

function isTrusted(address: string, hop: number, trust: ProxyTrust): boolean {
  switch (trust.kind) {
    case 'none':
      return false;
    case 'hops':
      return hop < trust.hops;
    case 'networks': {
      if (isIP(address) === 0) return false;
      const parsed = ipaddr.parse(address);
      return trust.networks.some(([network, bits]) => parsed.kind() === network.kind() && parsed.match(network, bits));
    }
  }
}

/**
 * The client's address: the directly connected peer, or, while that peer is a trusted
 * proxy, the entry it added to `x-forwarded-for` (read right to left). The walk stops at
 * the first untrusted address, and at an entry that is not an IP address: what a client
 * wrote there is never taken. `unknown` when the socket has no address (it has closed).
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, trust: ProxyTrust): string {
  let current = canonicalAddress(peer);
  if (current === null) return 'unknown';
  if (trust.kind === 'none' || forwardedFor === undefined) return current;
  const entries = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',');
  let hop = 0;
  for (let index = entries.length - 1; index >= 0 && isTrusted(current, hop, trust); index -= 1, hop += 1) {
    const next = canonicalAddress(entries[index]);
    if (next === null) break;
    current = next;
  }
  return current;
}
