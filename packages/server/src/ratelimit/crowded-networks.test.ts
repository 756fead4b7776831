import { describe, expect, it } from 'vitest';
import { limitedAddress } from '../net/limited-address.js';
import { CrowdedNetworks } from './crowded-networks.js';

const window = 300_000;
const subnet = (n: number) => limitedAddress(`2001:db8:1:${n.toString(16)}::1`);

describe('IPv6 networks crowding one scope', () => {
  it('counts each /64 on its own until more than the threshold of one /48 come, then the /48 as one client', () => {
    const networks = new CrowdedNetworks(100, 3);
    expect([1, 2, 3].map((n) => networks.counted('form', subnet(n), window, true, 0))).toEqual(['2001:db8:1:1::/64', '2001:db8:1:2::/64', '2001:db8:1:3::/64']);
    // The same /64 again is not a new one.
    expect(networks.counted('form', subnet(3), window, true, 1)).toBe('2001:db8:1:3::/64');
    expect(networks.counted('form', subnet(4), window, true, 2)).toBe('2001:db8:1::/48');
    expect(networks.counted('form', subnet(1), window, true, 3)).toBe('2001:db8:1::/48');
    expect(networks.counted('form', subnet(0xffff), window, false, 4)).toBe('2001:db8:1::/48');
  });

  it('leaves other scopes, other /48s and IPv4 clients alone', () => {
    const networks = new CrowdedNetworks(100, 3);
    for (let n = 1; n <= 10; n++) networks.counted('form-a', subnet(n), window, true, 0);
    expect(networks.counted('form-b', subnet(1), window, true, 1)).toBe('2001:db8:1:1::/64');
    expect(networks.counted('form-a', limitedAddress('2001:db8:2:1::1'), window, true, 1)).toBe('2001:db8:2:1::/64');
    expect(networks.counted('form-a', limitedAddress('203.0.113.7'), window, true, 1)).toBe('203.0.113.7');
  });

  it('does not judge a network by peeks, and stops folding a window after the crowd has gone', () => {
    const networks = new CrowdedNetworks(100, 3);
    for (let n = 1; n <= 10; n++) expect(networks.counted('auth', subnet(n), window, false, 0)).toBe(`2001:db8:1:${n.toString(16)}::/64`);
    for (let n = 1; n <= 4; n++) networks.counted('auth', subnet(n), window, true, 10);
    expect(networks.counted('auth', subnet(9), window, true, window)).toBe('2001:db8:1::/48');
    // A new window of watching, with a crowd still there: folded for another window.
    for (let n = 1; n <= 4; n++) networks.counted('auth', subnet(n), window, true, window + 20);
    expect(networks.counted('auth', subnet(1), window, true, 2 * window + 10)).toBe('2001:db8:1::/48');
    // One /64 alone afterwards: counted as itself once the fold has run out.
    expect(networks.counted('auth', subnet(1), window, true, 2 * window + 30)).toBe('2001:db8:1:1::/64');
  });

  it('watches at most its capacity of networks, forgetting the one watched longest', () => {
    const networks = new CrowdedNetworks(50, 3);
    for (let n = 0; n < 5_000; n++) networks.counted('form', limitedAddress(`2001:db8:${n.toString(16)}:1::1`), window, true, n);
    expect(networks.size).toBe(50);
  });
});
