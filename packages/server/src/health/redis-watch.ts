import type { Redis } from 'ioredis';
import type { DependencyHealth } from './dependency-health.js';

export interface RedisWatchOptions {
  /** How often a PING checks that Redis still answers. */
  readonly intervalMs: number;
}

/**
 * Keeps `health` told about Redis, and gets a frozen Redis out of the request path.
 *
 * A Redis that stops answering (a stalled server, SIGSTOP, a failover in progress) keeps
 * its connection open, so the client stays "ready" and every command waits for its
 * timeout. When a PING times out the connection is dropped and made again: until the new
 * one is ready, commands fail at once and the rate limiters count per instance, as they
 * do when Redis is down.
 */
export function watchRedis(redis: Redis, health: DependencyHealth, options: RedisWatchOptions): { stop(): void } {
  redis.on('ready', () => health.set('redis', null));
  redis.on('error', (error: Error) => health.set('redis', error.message));
  redis.on('close', () => health.set('redis', 'the connection closed'));
  let checking = false;
  const timer = setInterval(() => {
    if (checking || redis.status !== 'ready') return;
    checking = true;
    redis
      .ping()
      .catch((error: unknown) => {
        health.set('redis', `no answer to PING (${(error as Error).message})`);
        if (redis.status === 'ready') redis.disconnect(true);
      })
      .finally(() => (checking = false));
  }, options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
