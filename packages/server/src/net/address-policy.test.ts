import { describe, expect, it } from 'vitest';
import { refusedAddressReason, refusedLiteralReason } from './address-policy.js';

describe('refusedAddressReason', () => {
  it.each([
    // IPv4
    ['127.0.0.1', 'a loopback address'],
    ['127.255.255.254', 'a loopback address'],
    ['10.0.0.1', 'a private address'],
    ['10.255.255.255', 'a private address'],
    ['172.16.0.1', 'a private address'],
    ['172.31.255.255', 'a private address'],
    ['192.168.1.1', 'a private address'],
    ['169.254.1.1', 'a link-local address'],
    ['169.254.169.254', 'a cloud metadata address'],
    ['100.64.0.1', 'a carrier-grade NAT address (100.64.0.0/10)'],
    ['100.127.255.255', 'a carrier-grade NAT address (100.64.0.0/10)'],
    ['100.100.100.200', 'a cloud metadata address'],
    ['0.0.0.0', 'an unspecified address'],
    ['0.1.2.3', 'an unspecified address'],
    ['255.255.255.255', 'the broadcast address'],
    ['224.0.0.1', 'a multicast address'],
    ['239.255.255.250', 'a multicast address'],
    ['240.0.0.1', 'a reserved address'],
    ['192.0.2.1', 'a reserved address'],
    ['198.18.0.1', 'a reserved address'],
    ['203.0.113.9', 'a reserved address'],
    // IPv6
    ['::1', 'a loopback address'],
    ['::', 'an unspecified address'],
    ['fe80::1', 'a link-local address'],
    ['fc00::1', 'a unique-local address (fc00::/7)'],
    ['fd12:3456::1', 'a unique-local address (fc00::/7)'],
    ['fd00:ec2::254', 'a cloud metadata address'],
    ['ff02::1', 'a multicast address'],
    ['2001:db8::1', 'a reserved address'],
    ['64:ff9b::7f00:1', 'a NAT64 address'],
    ['2002:7f00:1::1', 'a 6to4 address'],
    ['::7f00:1', 'an IPv6 address outside global unicast (2000::/3)'],
    // IPv4-mapped IPv6: judged as the IPv4 address inside
    ['::ffff:127.0.0.1', 'a loopback address'],
    ['::ffff:7f00:1', 'a loopback address'],
    ['::ffff:10.1.2.3', 'a private address'],
    ['::ffff:169.254.169.254', 'a cloud metadata address'],
    ['::ffff:100.64.0.1', 'a carrier-grade NAT address (100.64.0.0/10)'],
    ['::ffff:0.0.0.0', 'an unspecified address'],
  ])('refuses %s: %s', (address, reason) => {
    expect(refusedAddressReason(address)).toBe(reason);
  });

  it.each(['93.184.215.14', '8.8.8.8', '1.1.1.1', '100.63.255.255', '100.128.0.1', '172.15.255.255', '172.32.0.1', '2606:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8'])(
    'allows the public address %s',
    (address) => {
      expect(refusedAddressReason(address)).toBeNull();
    },
  );

  it('refuses what is not an address', () => {
    expect(refusedAddressReason('example.com')).toBe('not an IP address');
  });
});

describe('refusedLiteralReason', () => {
  it.each([
    ['http://127.0.0.1:8080/hook', '127.0.0.1 is a loopback address'],
    ['http://[::1]/hook', '::1 is a loopback address'],
    ['http://[::ffff:127.0.0.1]/hook', '::ffff:7f00:1 is a loopback address'],
    ['http://2130706433/hook', '127.0.0.1 is a loopback address'],
    ['http://0x7f.1/hook', '127.0.0.1 is a loopback address'],
    ['https://169.254.169.254/latest/meta-data', '169.254.169.254 is a cloud metadata address'],
    ['http://10.0.0.1/', '10.0.0.1 is a private address'],
  ])('checks the IP literal of %s', (url, reason) => {
    expect(refusedLiteralReason(new URL(url))).toBe(reason);
  });

  it('leaves host names to the connect-time check', () => {
    expect(refusedLiteralReason(new URL('http://localhost:8080/'))).toBeNull();
    expect(refusedLiteralReason(new URL('https://hooks.example.com/'))).toBeNull();
    expect(refusedLiteralReason(new URL('https://8.8.8.8/'))).toBeNull();
  });
});
