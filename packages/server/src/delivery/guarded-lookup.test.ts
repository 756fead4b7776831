import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import { guardedLookup, RefusedTargetError, type ResolveAll } from './guarded-lookup.js';

const resolverOf =
  (addresses: LookupAddress[], seen: unknown[] = []): ResolveAll =>
  (hostname, options, callback) => {
    seen.push({ hostname, options });
    callback(null, addresses);
  };

function lookupWith(resolve: ResolveAll, all: boolean): Promise<{ error: Error | null; address: unknown; family: unknown }> {
  return new Promise((done) => {
    guardedLookup(resolve)('hooks.example.com', { all }, (error, address, family) => done({ error, address, family }));
  });
}

describe('guardedLookup', () => {
  const publicAddresses: LookupAddress[] = [
    { address: '93.184.215.14', family: 4 },
    { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
  ];

  it('answers with every address when Node asks for all of them (happy eyeballs)', async () => {
    const seen: unknown[] = [];
    const result = await lookupWith(resolverOf(publicAddresses, seen), true);
    expect(result.error).toBeNull();
    expect(result.address).toEqual(publicAddresses);
    expect(seen).toEqual([{ hostname: 'hooks.example.com', options: { all: true } }]);
  });

  it('answers with the first address when Node asks for one', async () => {
    const result = await lookupWith(resolverOf(publicAddresses), false);
    expect(result).toEqual({ error: null, address: '93.184.215.14', family: 4 });
  });

  it.each([
    [[{ address: '127.0.0.1', family: 4 }], /resolves to 127\.0\.0\.1, a loopback address/],
    [[{ address: '93.184.215.14', family: 4 }, { address: '10.0.0.7', family: 4 }], /resolves to 10\.0\.0\.7, a private address/],
    [[{ address: '::ffff:169.254.169.254', family: 6 }], /cloud metadata/],
    [[{ address: '::1', family: 6 }], /loopback/],
  ] as [LookupAddress[], RegExp][])('refuses the connection when any address is refused: %j', async (addresses, message) => {
    for (const all of [true, false]) {
      const result = await lookupWith(resolverOf(addresses), all);
      expect(result.error).toBeInstanceOf(RefusedTargetError);
      expect(result.error?.message).toMatch(message);
      expect((result.error as RefusedTargetError).code).toBe('ERR_SVC_REFUSED_TARGET');
    }
  });

  it('passes resolution errors through', async () => {
    const failure = Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    const result = await lookupWith((_hostname, _options, callback) => callback(failure, []), true);
    expect(result.error).toBe(failure);
  });

  it('checks the real resolver: localhost resolves to loopback', async () => {
    const result = await new Promise<Error | null>((done) => guardedLookup()('localhost', { all: true }, (error) => done(error)));
    expect(result).toBeInstanceOf(RefusedTargetError);
  });
});
