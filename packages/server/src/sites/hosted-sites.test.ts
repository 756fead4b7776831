import { describe, expect, it } from 'vitest';
import { hostnameOf } from './hosted-sites.js';

describe('the hostname of a Host header', () => {
  it.each([
    ['www.example.com', 'www.example.com'],
    ['WWW.Example.COM:8080', 'www.example.com'],
    ['example.com.', 'example.com'],
    ['dpl-06h171jq1nbfs0vtbns7y3jc6g.localhost:8787', 'dpl-06h171jq1nbfs0vtbns7y3jc6g.localhost'],
  ])('%s → %s', (host, hostname) => {
    expect(hostnameOf(host)).toBe(hostname);
  });

  it.each([undefined, '', '[::1]:8787', 'exa mple.com', 'evil.com/x'])('%j names no hosted site', (host) => {
    expect(hostnameOf(host)).toBeNull();
  });
});
