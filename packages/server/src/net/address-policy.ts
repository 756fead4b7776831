import { isIP } from 'node:net';
import { ipaddr } from './ipaddr.js';

/** What each refused ipaddr.js range is, for error messages. Anything not `unicast` is refused. */
const rangeNames: Readonly<Record<string, string>> = {
  unspecified: 'an unspecified address',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address (100.64.0.0/10)',
  private: 'a private address',
  uniqueLocal: 'a unique-local address (fc00::/7)',
  reserved: 'a reserved address',
  benchmarking: 'a benchmarking address',
  ipv4Mapped: 'an IPv4-mapped address',
  rfc6145: 'an IPv4-translated address',
  rfc6052: 'a NAT64 address',
  '6to4': 'a 6to4 address',
  teredo: 'a Teredo address',
  deprecatedSiteLocal: 'a site-local address',
};

/** Cloud instance metadata services; most are in refused ranges anyway, named for clearer errors. */
const metadataAddresses = ['169.254.169.254', 'fd00:ec2::254', '100.100.100.200'].map((address) => ipaddr.parse(address).toNormalizedString());

/** Only global unicast IPv6 (2000::/3) is reachable; the rest is special-purpose or embeds IPv4. */
const globalUnicastV6 = ipaddr.parseCIDR('2000::/3');

/**
 * Why a webhook may not connect to this address, or null when it may: loopback, private,
 * link-local, CGNAT, unique-local, unspecified, multicast, broadcast, reserved and metadata
 * addresses are refused, in IPv4, IPv6 and IPv4-mapped IPv6 forms alike.
 */
export function refusedAddressReason(address: string): string | null {
  if (!ipaddr.isValid(address)) return 'not an IP address';
  // process() turns ::ffff:a.b.c.d into a.b.c.d, so mapped forms are judged as IPv4.
  const parsed = ipaddr.process(address);
  if (metadataAddresses.includes(parsed.toNormalizedString())) return 'a cloud metadata address';
  const range = parsed.range();
  if (range !== 'unicast') return rangeNames[range] ?? `a special-purpose address (${range})`;
  if (parsed.kind() === 'ipv6' && !parsed.match(globalUnicastV6)) return 'an IPv6 address outside global unicast (2000::/3)';
  return null;
}

/**
 * Why a host whose name resolved to `addresses` may not be reached: the first refused
 * address, as `host resolves to ADDRESS, why` (just `ADDRESS, why` when the host is that
 * address), or null when every address may be reached. The one check of every resolution
 * the service makes for webhooks, repositories, captcha providers and builds' installs.
 */
export function refusedResolution(host: string, addresses: readonly string[]): string | null {
  for (const address of addresses) {
    const reason = refusedAddressReason(address);
    if (reason !== null) return `${host === address ? '' : `${host} resolves to `}${address}, ${reason}`;
  }
  return null;
}

/** The URL's host when it is an IP literal (brackets removed), else null. */
export function ipLiteralHost(url: URL): string | null {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) === 0 ? null : host;
}

/** Why a URL whose host is an IP literal may not be reached, or null (hostnames are checked at connect time). */
export function refusedLiteralReason(url: URL): string | null {
  const host = ipLiteralHost(url);
  if (host === null) return null;
  const reason = refusedAddressReason(host);
  return reason === null ? null : `${host} is ${reason}`;
}

/** How to let webhooks reach a refused address, named wherever one is refused (docs/server.md). */
export const privateTargetsHint = 'start `svc serve` with --allow-private-targets (or SVC_ALLOW_PRIVATE_TARGETS=true) to allow it, for local development only';
