import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { safeNext } from './routes/auth-routes.js';
import { attachmentDisposition } from '../http/attachment.js';
import { tokensEqual } from '../lib/constant-time.js';
import { sameOrigin } from './security.js';

const request = (headers: Record<string, string>): FastifyRequest => ({ headers: { host: 'svc.test:8787', ...headers }, protocol: 'http' }) as unknown as FastifyRequest;

describe('the settings area origin check', () => {
  it('accepts the base URL origin and the request’s own origin', () => {
    expect(sameOrigin(request({ origin: 'https://svc.example.com' }), 'https://svc.example.com')).toBe(true);
    expect(sameOrigin(request({ origin: 'http://svc.test:8787' }), 'https://svc.example.com')).toBe(true);
  });

  it('refuses another origin, an opaque origin, and a foreign Referer', () => {
    expect(sameOrigin(request({ origin: 'https://evil.example' }), 'https://svc.example.com')).toBe(false);
    expect(sameOrigin(request({ origin: 'null' }), 'https://svc.example.com')).toBe(false);
    expect(sameOrigin(request({ referer: 'https://evil.example/page' }), 'https://svc.example.com')).toBe(false);
    expect(sameOrigin(request({ referer: 'not a url' }), 'https://svc.example.com')).toBe(false);
  });

  it('leaves a request naming no origin to the CSRF token', () => {
    expect(sameOrigin(request({}), 'https://svc.example.com')).toBe(true);
  });

  it('compares CSRF tokens exactly', () => {
    expect(tokensEqual('abc', 'abc')).toBe(true);
    expect(tokensEqual('abc', 'abd')).toBe(false);
    expect(tokensEqual('abc', 'ab')).toBe(false);
    expect(tokensEqual('abc', undefined)).toBe(false);
  });
});

describe('where signing in may lead', () => {
  it('goes back only to settings pages of this server', () => {
    expect(safeNext('/settings/acme/site')).toBe('/settings/acme/site');
    for (const next of ['https://evil.example/', '//evil.example/settings', '/login', undefined, 42, `/settings/${'a'.repeat(3000)}`]) {
      expect(safeNext(next)).toBe('/settings');
    }
  });

  it('never leads anywhere with characters a location header cannot carry', () => {
    for (const next of ['/settings\r\nset-cookie: a=b', '/settings/acme\nsite', '/settings/\u0000', '/settings/a b', '/settings/caf\u00e9', '/settings/\u2028']) {
      expect(safeNext(next)).toBe('/settings');
    }
  });
});

describe('file downloads', () => {
  it('name the file safely for old clients and exactly for new ones', () => {
    expect(attachmentDisposition('report.pdf')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    expect(attachmentDisposition('"evil"\r\n.html')).toBe(`attachment; filename="_evil___.html"; filename*=UTF-8''%22evil%22%0D%0A.html`);
    expect(attachmentDisposition('')).toBe(`attachment; filename="file"; filename*=UTF-8''`);
  });
});
