import { describe, expect, it } from 'vitest';
import { storedIp } from './stored-ip.js';

describe('the client address a submission keeps', () => {
  it('keeps the /24 of an IPv4 address and the /48 of an IPv6 address by default', () => {
    expect(storedIp('203.0.113.77', 'truncated')).toBe('203.0.113.0');
    expect(storedIp('2001:db8:85a3:8d3:1319:8a2e:370:7348', 'truncated')).toBe('2001:db8:85a3::');
    expect(storedIp('2001:0db8:0000:0000::1', 'truncated')).toBe('2001:db8:0::');
    expect(storedIp('::1', 'truncated')).toBe('::');
    expect(storedIp('fe80::1%eth0', 'truncated')).toBe('fe80:0:0::');
  });

  it('keeps all of it, or nothing, when told to', () => {
    expect(storedIp('203.0.113.77', 'full')).toBe('203.0.113.77');
    expect(storedIp('203.0.113.77', 'none')).toBeNull();
  });

  it('keeps nothing of what is not an address', () => {
    expect(storedIp('unknown', 'truncated')).toBeNull();
  });
});
