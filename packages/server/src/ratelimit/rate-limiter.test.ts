import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { FailedAuthentications } from '../auth/failed-authentications.js';
import { WindowRateLimiter } from './rate-limiter.js';

const policy = { max: 2, windowSeconds: 300 };
const limiter = (maxKeys: number, foldAfter?: number) => WindowRateLimiter.inMemory({ maxKeys, secret: randomBytes(32), ...(foldAfter === undefined ? {} : { foldAfter }) }, null);
const ipv4 = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

describe('the rate limiter under a flood of client addresses', () => {
  it('counts a new visitor of another form, and of the flooded one, as their own client after the table is full', async () => {
    const dropped: string[] = [];
    const limits = await WindowRateLimiter.inMemory({ maxKeys: 10, secret: randomBytes(32), observer: { windowDropped: (limit) => dropped.push(limit), redisFallback: () => undefined } }, null);
    for (let i = 0; i < 1_000; i++) expect((await limits.consumeClient(policy, { scope: 'form-a', address: ipv4(i) })).allowed).toBe(true);
    expect(limits.windowsHeld()).toEqual(new Map([['form', 10]]));
    expect(dropped).toEqual(Array.from({ length: 990 }, () => 'form'));
    for (const scope of ['form-b', 'pinpoints|project-b', 'form-a']) {
      const visitor = { scope, address: '198.51.100.7' };
      expect(await limits.consumeClient(policy, visitor)).toMatchObject({ allowed: true, remaining: 1 });
      expect(await limits.consumeClient(policy, visitor)).toMatchObject({ allowed: true, remaining: 0 });
      expect(await limits.consumeClient(policy, visitor)).toMatchObject({ allowed: false, remaining: 0 });
    }
  });

  it('keeps refusing a client that keeps coming while a flood of newcomers passes', async () => {
    const limits = await limiter(10);
    const abuser = { scope: 'form-a', address: '192.0.2.66' };
    for (let i = 0; i < 3; i++) await limits.consumeClient(policy, abuser);
    for (let i = 0; i < 1_000; i++) {
      await limits.consumeClient(policy, { scope: 'form-a', address: ipv4(i) });
      if (i % 5 === 0) expect((await limits.consumeClient(policy, abuser)).allowed).toBe(false);
    }
  });

  it('counts the addresses of one IPv6 /64 as one client', async () => {
    const limits = await limiter(10);
    const client = (address: string) => limits.consumeClient(policy, { scope: 'form', address });
    expect((await client('2001:db8:1:2::1')).allowed).toBe(true);
    expect((await client('2001:db8:1:2:ffff:ffff:ffff:ffff')).allowed).toBe(true);
    expect((await client('2001:db8:1:2::3')).allowed).toBe(false);
    expect((await client('2001:db8:1:3::1')).allowed).toBe(true);
  });

  it('counts a /48 whose /64s crowd one form as one client there, and nowhere else', async () => {
    const limits = await limiter(1_000, 4);
    const post = async (scope: string, n: number) => (await limits.consumeClient(policy, { scope, address: `2001:db8:77:${n.toString(16)}::1` })).allowed;
    // Four /64s on their own; the fifth makes the /48 one client, which has two requests.
    for (let n = 1; n <= 4; n++) expect(await post('form-a', n)).toBe(true);
    expect([await post('form-a', 5), await post('form-a', 6), await post('form-a', 7), await post('form-a', 0xbeef)]).toEqual([true, true, false, false]);
    // The same /48 elsewhere, and another /48 in the same form, are their own clients.
    expect(await post('form-b', 0xbeef)).toBe(true);
    expect((await limits.consumeClient(policy, { scope: 'form-a', address: '2001:db8:78:1::1' })).allowed).toBe(true);
  });

  it('keeps counting failed authentications of a new address while the tables are full', async () => {
    const limits = await limiter(5);
    const failures = new FailedAuthentications(limits, { max: 20, windowSeconds: 300 });
    for (let i = 0; i < 100; i++) {
      await failures.record(ipv4(i));
      await limits.consumeClient(policy, { scope: 'form', address: ipv4(i) });
    }
    const address = '192.0.2.40';
    for (let attempt = 1; attempt <= 20; attempt++) {
      expect((await failures.check(address)).allowed, `attempt ${attempt}`).toBe(true);
      await failures.record(address);
    }
    const refused = await failures.check(address);
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    expect(refused.resetSeconds).toBeGreaterThan(290);
    // The address's /64 neighbours in IPv6 are one client too.
    for (let attempt = 0; attempt < 20; attempt++) await failures.record(`2001:db8:5:6::${attempt + 1}`);
    expect((await failures.check('2001:db8:5:6::ffff')).allowed).toBe(false);
  });

  it('counts keys that are not addresses as given', async () => {
    const limits = await limiter(10);
    expect((await limits.consume(policy, 'token-1', 'cli')).remaining).toBe(1);
    expect((await limits.consume(policy, 'token-1', 'cli')).remaining).toBe(0);
    expect((await limits.consume(policy, 'token-1', 'cli')).allowed).toBe(false);
    expect((await limits.consume(policy, 'token-1', 'form')).allowed).toBe(true);
  });
});

describe('the rate limiter with Redis unreachable', () => {
  it('counts each newcomer on its own in bounded memory of this instance', async () => {
    const client = new Redis({ lazyConnect: true });
    let fallbacks = 0;
    const observer = { windowDropped: () => undefined, redisFallback: () => void (fallbacks += 1) };
    const limits = WindowRateLimiter.inRedis(client, 'svc-test:', { maxKeys: 5, secret: randomBytes(32), observer });
    for (let i = 0; i < 100; i++) await limits.consumeClient(policy, { scope: 'form-a', address: ipv4(i) });
    expect(fallbacks).toBe(100);
    expect(limits.windowsHeld()).toEqual(new Map([['form', 5]]));
    const visitor = { scope: 'form-b', address: '198.51.100.8' };
    expect((await limits.consumeClient(policy, visitor)).allowed).toBe(true);
    expect((await limits.peekClient(policy, visitor)).remaining).toBe(1);
    expect((await limits.consumeClient(policy, visitor)).allowed).toBe(true);
    expect((await limits.consumeClient(policy, visitor)).allowed).toBe(false);
    await limits.close();
    client.disconnect();
  });
});
