import { describe, expect, it } from 'vitest';
import { canonicalAddress, clientAddress, noProxyTrust, parseProxyTrust } from './client-address.js';

describe('the client address', () => {
  it('is the connected peer when no proxy is trusted, whatever x-forwarded-for says', () => {
    expect(clientAddress('203.0.113.5', '198.51.100.1', noProxyTrust)).toBe('203.0.113.5');
    expect(clientAddress('::ffff:203.0.113.5', undefined, noProxyTrust)).toBe('203.0.113.5');
    expect(clientAddress(undefined, '198.51.100.1', noProxyTrust)).toBe('unknown');
  });

  it('is the right-most entry when the peer is the one trusted hop: entries a client wrote in front are never taken', () => {
    const trust = parseProxyTrust('true');
    expect(clientAddress('10.0.0.2', '1.1.1.1, 2.2.2.2, 198.51.100.7', trust)).toBe('198.51.100.7');
    expect(clientAddress('10.0.0.2', ['1.1.1.1', '198.51.100.7'], trust)).toBe('198.51.100.7');
  });

  it('walks as many hops as are trusted', () => {
    expect(clientAddress('10.0.0.2', '1.1.1.1, 198.51.100.7, 10.0.0.9', parseProxyTrust('2'))).toBe('198.51.100.7');
    expect(clientAddress('10.0.0.2', '198.51.100.7', parseProxyTrust('5'))).toBe('198.51.100.7');
  });

  it('walks through peers inside trusted networks and stops at the first one outside', () => {
    const trust = parseProxyTrust('loopback, 10.0.0.0/8');
    expect(clientAddress('127.0.0.1', '1.1.1.1, 198.51.100.7, 10.3.4.5', trust)).toBe('198.51.100.7');
    expect(clientAddress('203.0.113.9', '198.51.100.7', trust)).toBe('203.0.113.9');
  });

  it('never takes an entry that is not an IP address, however long', () => {
    const trust = parseProxyTrust('true');
    expect(clientAddress('10.0.0.2', 'not-an-ip', trust)).toBe('10.0.0.2');
    expect(clientAddress('10.0.0.2', `${'9'.repeat(8_000)}`, trust)).toBe('10.0.0.2');
    expect(clientAddress('10.0.0.2', '198.51.100.7, garbage', parseProxyTrust('3'))).toBe('10.0.0.2');
    expect(clientAddress('10.0.0.2', ' 2001:DB8::1 ', trust)).toBe('2001:db8::1');
  });

  it('refuses a trust list that is not addresses or networks', () => {
    expect(() => parseProxyTrust('proxy.example')).toThrow(/not an IP address/);
    expect(() => parseProxyTrust('99')).toThrow(/hop count/);
    expect(parseProxyTrust('false')).toEqual(noProxyTrust);
    expect(parseProxyTrust('0')).toEqual(noProxyTrust);
    // Booleans as every switch's environment variable takes them (SVC_TRUST_PROXY=yes).
    expect(parseProxyTrust('yes')).toEqual({ kind: 'hops', hops: 1 });
    expect(parseProxyTrust('off')).toEqual(noProxyTrust);
  });

  it('keys an address by its canonical text, IPv4-mapped IPv6 unwrapped', () => {
    expect(canonicalAddress('::ffff:1.2.3.4')).toBe('1.2.3.4');
    expect(canonicalAddress('1.2.3')).toBeNull();
  });
});
