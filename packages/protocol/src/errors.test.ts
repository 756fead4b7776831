import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ServiceError, codeForStatus, errorCodes, isErrorCode } from './errors.js';

const docs = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');
const documented = new Map(
  [...docs.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \| (\d) \| (.+) \|$/gm)].map((row) => [row[1]!, { status: Number(row[2]), exit: Number(row[3]) }]),
);

describe('the error registry', () => {
  it('is documented in docs/errors.md, code for code, with the same status and exit code', () => {
    const registry = Object.fromEntries(Object.entries(errorCodes).map(([code, spec]) => [code, { status: spec.status, exit: spec.exit }]));
    expect(Object.fromEntries(documented)).toEqual(registry);
  });

  it('gives every code an HTTP error status and an exit code of 1, 2 or 3', () => {
    for (const [code, spec] of Object.entries(errorCodes)) {
      expect(spec.status, code).toBeGreaterThanOrEqual(400);
      expect([1, 2, 3], code).toContain(spec.exit);
      expect(spec.description.length, code).toBeGreaterThan(10);
    }
  });

  it('builds errors that carry their code, status and exit code', () => {
    const error = new ServiceError('rate_limited', 'slow down', { retryAfter: 3 });
    expect([error.code, error.status, error.exitCode, error.message, error.details]).toEqual(['rate_limited', 429, 1, 'slow down', { retryAfter: 3 }]);
    expect(new ServiceError('internal').message).toBe(errorCodes.internal.description);
    expect(isErrorCode('not_found')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
  });

  it('names an HTTP status the server answered without a code', () => {
    expect([codeForStatus(404), codeForStatus(401), codeForStatus(409), codeForStatus(503), codeForStatus(502), codeForStatus(599), codeForStatus(418)]).toEqual([
      'not_found',
      'unauthorized',
      'conflict',
      'unavailable',
      'server_error',
      'server_error',
      'invalid_body',
    ]);
  });
});
