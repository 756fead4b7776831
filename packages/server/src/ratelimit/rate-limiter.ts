import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import { KeyBudget } from './key-budget.js';
import type { RateLimitPolicy } from './policy.js';
import { BatchedRateLimiterRedis, RedisIncrements } from './redis-increments.js';
import type { RateLimitSnapshots } from './snapshots.js';

export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly policy: RateLimitPolicy;
  readonly remaining: number;
  /** Whole seconds until the window resets: the true wait when not allowed (at least 1). */
  readonly resetSeconds: number;
}

export interface RateLimiter {
  /**
   * Counts one request for `key` under `policy`. `name` keeps the counters of different
   * limits apart (`form` for the form endpoint, `cli` for the CLI API).
   */
  consume(policy: RateLimitPolicy, key: string, name?: string): Promise<RateLimitDecision>;
  /** Whether `key` is still within `policy`, counting nothing (for limits on failures only). */
  peek(policy: RateLimitPolicy, key: string, name?: string): Promise<RateLimitDecision>;
  close(): Promise<void>;
}

/** The key that clients share while a limiter counts as many keys as it may (docs/server.md, "Limits and timeouts"). */
export const overflowKey = '*overflow*';

export const defaultMaxKeys = 100_000;

interface Counter {
  readonly limiter: RateLimiterAbstract;
  readonly budget: KeyBudget;
}

/**
 * Fixed windows counted by rate-limiter-flexible: in memory (with write-behind snapshots
 * to the store, so counts survive a restart) on one machine, or atomically in Redis when
 * instances share it. One limiter per distinct policy, made on first use.
 *
 * Memory is bounded under any flood of keys: once the limiters of this process count
 * `maxKeys` keys in their windows, a key seen for the first time is not stored but counted
 * with every other newcomer under one shared key, until old keys expire.
 */
export class FlexibleRateLimiter implements RateLimiter {
  private readonly limiters = new Map<string, Counter>();

  private constructor(
    private readonly create: (policy: RateLimitPolicy, prefix: string) => RateLimiterAbstract,
    private readonly snapshots: RateLimitSnapshots | null,
    /** Put before `<name>:<max>:<window>` in every limiter's key prefix. */
    private readonly namespace: string,
    private readonly maxKeys: number,
  ) {}

  static inMemory(snapshots: RateLimitSnapshots | null, maxKeys = defaultMaxKeys): FlexibleRateLimiter {
    return new FlexibleRateLimiter(
      (policy, prefix) => {
        const limiter = new RateLimiterMemory({ points: policy.max, duration: policy.windowSeconds, keyPrefix: prefix });
        snapshots?.attach(prefix, limiter);
        return limiter;
      },
      snapshots,
      '',
      maxKeys,
    );
  }

  static inRedis(client: Redis, keyPrefix: string, maxKeys = defaultMaxKeys): FlexibleRateLimiter {
    const increments = new RedisIncrements(client);
    return new FlexibleRateLimiter(
      (policy, prefix) =>
        new BatchedRateLimiterRedis({
          storeClient: client,
          points: policy.max,
          duration: policy.windowSeconds,
          keyPrefix: `${keyPrefix}${prefix}`,
          rejectIfRedisNotReady: true,
          // While Redis is unreachable each instance counts on its own rather than failing
          // every submission.
          insuranceLimiter: new RateLimiterMemory({ points: policy.max, duration: policy.windowSeconds }),
        }, increments),
      null,
      'rl:',
      maxKeys,
    );
  }

  async consume(policy: RateLimitPolicy, key: string, name = 'form'): Promise<RateLimitDecision> {
    const { prefix, limiter, budget } = this.limiterFor(policy, name);
    let counted = await this.count(limiter, key);
    if (counted.result.consumedPoints === 1 && key !== overflowKey) {
      const now = Date.now();
      if (this.liveKeys(now) >= this.maxKeys) {
        await limiter.delete(key);
        key = overflowKey;
        counted = await this.count(limiter, key);
      } else {
        budget.created(now);
      }
    }
    const { result, allowed } = counted;
    this.snapshots?.touch(prefix, key);
    const resetSeconds = Math.max(1, Math.ceil(result.msBeforeNext / 1000));
    return { allowed, policy, remaining: Math.max(0, policy.max - result.consumedPoints), resetSeconds };
  }

  private async count(limiter: RateLimiterAbstract, key: string): Promise<{ result: RateLimiterRes; allowed: boolean }> {
    try {
      return { result: await limiter.consume(key), allowed: true };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return { result: rejection, allowed: false };
    }
  }

  private liveKeys(now: number): number {
    let total = 0;
    for (const { budget } of this.limiters.values()) total += budget.live(now);
    return total;
  }

  async peek(policy: RateLimitPolicy, key: string, name = 'form'): Promise<RateLimitDecision> {
    const { limiter } = this.limiterFor(policy, name);
    const result = await limiter.get(key);
    const used = result?.consumedPoints ?? 0;
    const resetSeconds = Math.max(1, Math.ceil((result?.msBeforeNext ?? policy.windowSeconds * 1000) / 1000));
    return { allowed: used < policy.max, policy, remaining: Math.max(0, policy.max - used), resetSeconds };
  }

  async close(): Promise<void> {
    await this.snapshots?.stop();
  }

  private limiterFor(policy: RateLimitPolicy, name: string): Counter & { prefix: string } {
    const prefix = `${this.namespace}${name}:${policy.max}:${policy.windowSeconds}`;
    let counter = this.limiters.get(prefix);
    if (!counter) {
      counter = { limiter: this.create(policy, prefix), budget: new KeyBudget(policy.windowSeconds) };
      this.limiters.set(prefix, counter);
    }
    return { prefix, ...counter };
  }
}
