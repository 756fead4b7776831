import { describe, expect, it } from 'vitest';
import { failureFromAnswer, unreachable } from './http-failure.js';

const api = 'http://svc.test';

describe('failures of the CLI API as CLI errors', () => {
  it('keeps the registry code, message and details of a 4xx (exit 1)', () => {
    const failure = failureFromAnswer(404, JSON.stringify({ ok: false, error: 'not_found', message: 'no form "x"' }), api);
    expect([failure.code, failure.message, failure.exitCode]).toEqual(['not_found', 'no form "x"', 1]);
    const limited = failureFromAnswer(429, JSON.stringify({ ok: false, error: 'rate_limited', message: 'slow down', retryAfter: 7 }), api);
    expect([limited.code, limited.details]).toEqual(['rate_limited', { retryAfter: 7 }]);
    const invalid = failureFromAnswer(422, JSON.stringify({ ok: false, error: 'validation_failed', message: 'bad', errors: [{ pointer: '/x', message: 'no' }] }), api);
    expect(invalid.details).toEqual({ errors: [{ pointer: '/x', message: 'no' }] });
    const conflict = failureFromAnswer(409, JSON.stringify({ ok: false, error: 'conflict', message: 'taken', details: { hostnames: ['a.example'] } }), api);
    expect(conflict.details).toEqual({ hostnames: ['a.example'] });
  });

  it('says what to do about a refused token', () => {
    const failure = failureFromAnswer(401, JSON.stringify({ ok: false, error: 'unauthorized', message: 'the token is unknown or revoked' }), api);
    expect(failure.message).toBe('http://svc.test refused the token: the token is unknown or revoked; run `svc login` or check SVC_TOKEN');
  });

  it('says the address is not the service\'s base when a 404 comes without words', () => {
    for (const body of ['<html>not here</html>', JSON.stringify({ ok: false, error: 'not_found' })]) {
      const failure = failureFromAnswer(404, body, `${api}/settings`, 'GET /api/cli/token');
      expect([failure.code, failure.exitCode]).toEqual(['not_found', 1]);
      expect(failure.message).toBe(
        "http://svc.test/settings is not the service's base address (it answered 404 to GET /api/cli/token): give the address `svc serve` prints, such as http://127.0.0.1:8787, with no path (`svc login --api URL` or SVC_API_URL)",
      );
    }
  });

  it('names a 4xx without a usable body by its status', () => {
    expect(failureFromAnswer(409, '', api).code).toBe('conflict');
    expect(failureFromAnswer(418, '{"ok":false,"error":"teapot"}', api).code).toBe('invalid_body');
  });

  it('makes every 5xx exit 3', () => {
    const internal = failureFromAnswer(500, JSON.stringify({ ok: false, error: 'internal' }), api);
    expect([internal.code, internal.exitCode, internal.message]).toEqual(['internal', 3, 'the server at http://svc.test failed: internal']);
    expect(failureFromAnswer(502, 'Bad Gateway', api)).toMatchObject({ code: 'server_error', exitCode: 3 });
    expect(failureFromAnswer(503, JSON.stringify({ ok: false, error: 'not_found' }), api)).toMatchObject({ code: 'server_error', exitCode: 3 });
    expect(failureFromAnswer(503, JSON.stringify({ ok: false, error: 'unavailable', message: 'draining' }), api).message).toBe('the server at http://svc.test failed: draining');
  });

  it('describes a request that got no answer (exit 3)', () => {
    const refused = unreachable(api, new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }));
    expect([refused.code, refused.exitCode, refused.message]).toEqual([
      'network_error',
      3,
      'cannot reach the server at http://svc.test: connection refused (is `svc serve` running there?)',
    ]);
    const tls = new TypeError('fetch failed', { cause: Object.assign(new Error('SSL routines:ssl3_get_record:wrong version number'), { code: 'ERR_SSL_WRONG_VERSION_NUMBER' }) });
    expect(unreachable('https://127.0.0.1:8787', tls).message).toBe(
      'cannot reach the server at https://127.0.0.1:8787: it answers plain HTTP, not HTTPS: use http://127.0.0.1:8787, or put a TLS proxy in front of `svc serve` (docs/server.md#running-behind-a-proxy)',
    );
    const redirected = unreachable(`${api}/settings`, new TypeError('fetch failed', { cause: new Error('unexpected redirect') }));
    expect(redirected.message).toContain("http://svc.test/settings is not the service's base address (it answered with a redirect, as a web page does)");
    const slow = unreachable(api, new DOMException('timed out', 'TimeoutError'));
    expect(slow.message).toBe('cannot reach the server at http://svc.test: it did not answer in time');
  });
});
