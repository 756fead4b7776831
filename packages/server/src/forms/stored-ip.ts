import { isIP, isIPv4, isIPv6 } from 'node:net';

/** How much of a client's address a submission keeps (`--form-ip`, docs/privacy.md). */
export type FormIpMode = 'full' | 'truncated' | 'none';
export const formIpModes: readonly FormIpMode[] = ['full', 'truncated', 'none'];

/**
 * The address as stored with a submission: all of it, none, or truncated to the network
 * (IPv4 /24: `203.0.113.0`; IPv6 /48: `2001:db8:85a3::`), which still tells networks apart
 * for spam review but no longer names one household. The rate limiter keeps using the
 * whole IPv4 address or IPv6 /64, for its window only.
 */
export function storedIp(ip: string, mode: FormIpMode): string | null {
  if (mode === 'none') return null;
  if (mode === 'full') return isIP(ip) ? ip : null;
  if (isIPv4(ip)) return `${ip.split('.').slice(0, 3).join('.')}.0`;
  if (isIPv6(ip)) {
    const network = expandIpv6(ip).slice(0, 3).map((group) => group.replace(/^0+(?=.)/, ''));
    return network.every((group) => group === '0') ? '::' : `${network.join(':')}::`;
  }
  // Not an address at all (a unix socket, `unknown`): nothing worth keeping.
  return null;
}

/** The eight 16-bit groups of an IPv6 address, as hex without `::`. */
function expandIpv6(ip: string): string[] {
  const [address] = ip.split('%');
  const [head = '', tail] = address!.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  // An embedded IPv4 tail counts as two groups.
  const last = right.at(-1) ?? left.at(-1);
  const v4 = last !== undefined && last.includes('.') ? 1 : 0;
  const missing = 8 - left.length - right.length - v4;
  return [...left, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...right].map((group) => group.toLowerCase());
}
