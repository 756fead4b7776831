import { describe, expect, it } from 'vitest';
import { environmentOfHost, isLocalDevelopmentHost, originAllowed, originHostname } from './page-origin.js';

const widget = { openWithoutDomains: true };
const form = { openWithoutDomains: false };

const domains = [
  { hostname: 'www.example.com', environment: 'production' },
  { hostname: 'staging.example.com', environment: 'staging' },
];

describe('the environment of a page', () => {
  it.each([
    ['www.example.com', 'production'],
    ['STAGING.example.com', 'staging'],
    ['staging.example.com.', 'staging'],
    ['localhost', 'development'],
    ['shop.localhost', 'development'],
    ['127.0.0.1', 'development'],
    ['[::1]', 'development'],
    ['example.com', null],
    ['localhost.example.com', null],
    ['127.0.0.2', null],
  ])('%s is in %s', (host, environment) => {
    expect(environmentOfHost(host, domains)).toBe(environment);
  });

  it('takes the project\'s domains before the local-host rule', () => {
    expect(environmentOfHost('localhost', [{ hostname: 'localhost', environment: 'staging' }])).toBe('staging');
  });
});

describe('the origin check', () => {
  const hostnames = domains.map((domain) => domain.hostname);

  it('lets any origin through for the widget when the project has no domains, and only local hosts for a form', () => {
    expect(originAllowed('https://anything.example', [], widget)).toBe(true);
    expect(originAllowed(undefined, [], widget)).toBe(true);
    expect(originAllowed('https://anything.example', [], form)).toBe(false);
    expect(originAllowed('http://localhost:4321', [], form)).toBe(true);
  });

  it('lets the project\'s sites and local development hosts through, and nothing else, whatever their case', () => {
    for (const rule of [widget, form]) {
      expect(originAllowed('https://staging.example.com', hostnames, rule)).toBe(true);
      expect(originAllowed('https://STAGING.Example.com', hostnames, rule)).toBe(true);
      expect(originAllowed('http://localhost:5173', hostnames, rule)).toBe(true);
      expect(originAllowed('https://evil.example', hostnames, rule)).toBe(false);
      expect(originAllowed('https://staging.example.com.evil.example', hostnames, rule)).toBe(false);
      expect(originAllowed('null', hostnames, rule)).toBe(false);
      expect(originAllowed(undefined, hostnames, rule)).toBe(false);
      expect(originAllowed('not a url', hostnames, rule)).toBe(false);
    }
  });

  it('reads hostnames only from http and https origins', () => {
    expect(originHostname('https://Shop.Example.com:8443')).toBe('shop.example.com');
    expect(originHostname('file://')).toBeNull();
    expect(isLocalDevelopmentHost('::1')).toBe(true);
  });
});
