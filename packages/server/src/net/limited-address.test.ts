import { describe, expect, it } from 'vitest';
import { limitedAddress } from './limited-address.js';

describe('the address a rate limit counts', () => {
  it('counts IPv6 clients by their /64, within their /48, and IPv4 clients by their address', () => {
    expect(limitedAddress('2001:db8:1:2:3:4:5:6')).toEqual({ client: '2001:db8:1:2::/64', network: '2001:db8:1::/48', subnet: 2 });
    expect(limitedAddress('2001:db8:1:ff02::ffff')).toEqual({ client: '2001:db8:1:ff02::/64', network: '2001:db8:1::/48', subnet: 0xff02 });
    expect(limitedAddress('203.0.113.5')).toEqual({ client: '203.0.113.5', network: null, subnet: 0 });
  });
});
