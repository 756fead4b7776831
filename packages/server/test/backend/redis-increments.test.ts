import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteRedisKeys, redisUrl, scratchRedisPrefix, selectBackend } from '@svc/testkit';
import { WindowRateLimiter } from '../../src/ratelimit/rate-limiter.js';

const backend = await selectBackend();

// Redis is part of the PostgreSQL backend's suites (the scale-out path).
describe.runIf(backend.available && backend.name === 'postgres')('rate-limit counts in Redis', () => {
  const prefix = scratchRedisPrefix('increments');
  let client: Redis;
  const sent: string[] = [];

  beforeAll(async () => {
    client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
    await client.connect();
    const sendCommand = client.sendCommand.bind(client);
    client.sendCommand = (command, stream) => {
      sent.push(command.name);
      return sendCommand(command, stream);
    };
  });
  afterAll(async () => {
    await deleteRedisKeys(prefix);
    client.disconnect();
  });

  it('sends the counts of one event-loop turn as one call and counts each client exactly', async () => {
    const limiter = WindowRateLimiter.inRedis(client, prefix, { maxKeys: 1_000, secret: randomBytes(32) });
    const policy = { max: 5, windowSeconds: 60 };
    // Warm: the script is loaded once (EVAL), then called by its hash.
    await limiter.consume(policy, 'warm');
    sent.length = 0;

    const clients = Array.from({ length: 40 }, (_, index) => `203.0.113.${index}`);
    const decisions = await Promise.all(clients.flatMap((key) => Array.from({ length: 7 }, () => limiter.consume(policy, key))));
    expect(sent.filter((name) => name === 'evalsha' || name === 'eval')).toHaveLength(Math.ceil((clients.length * 7) / 256));
    for (const [index] of clients.entries()) {
      const own = decisions.slice(index * 7, index * 7 + 7);
      expect(own.filter((decision) => decision.allowed)).toHaveLength(5);
      expect(own.map((decision) => decision.remaining).sort()).toEqual([0, 0, 0, 1, 2, 3, 4]);
      for (const decision of own) expect(decision.resetSeconds).toBeGreaterThanOrEqual(59);
    }
    const stored = await client.get(`${prefix}rl:form:5:60|${clients[0]}`);
    expect(stored).toBe('7');
    await limiter.close();
  });
});
