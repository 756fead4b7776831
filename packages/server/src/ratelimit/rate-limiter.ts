import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import type { RateLimitPolicy } from './policy.js';
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

/**
 * Fixed windows counted by rate-limiter-flexible: in memory (with write-behind snapshots
 * to the store, so counts survive a restart) on one machine, or atomically in Redis when
 * instances share it. One limiter per distinct policy, made on first use.
 */
export class FlexibleRateLimiter implements RateLimiter {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  private constructor(
    private readonly create: (policy: RateLimitPolicy, prefix: string) => RateLimiterAbstract,
    private readonly snapshots: RateLimitSnapshots | null,
    /** Put before `<name>:<max>:<window>` in every limiter's key prefix. */
    private readonly namespace: string,
  ) {}

  static inMemory(snapshots: RateLimitSnapshots | null): FlexibleRateLimiter {
    return new FlexibleRateLimiter(
      (policy, prefix) => {
        const limiter = new RateLimiterMemory({ points: policy.max, duration: policy.windowSeconds, keyPrefix: prefix });
        snapshots?.attach(prefix, limiter);
        return limiter;
      },
      snapshots,
      '',
    );
  }

  static inRedis(client: Redis, keyPrefix: string): FlexibleRateLimiter {
    return new FlexibleRateLimiter(
      (policy, prefix) =>
        new RateLimiterRedis({
          storeClient: client,
          points: policy.max,
          duration: policy.windowSeconds,
          keyPrefix: `${keyPrefix}${prefix}`,
          rejectIfRedisNotReady: true,
          // While Redis is unreachable each instance counts on its own rather than failing
          // every submission.
          insuranceLimiter: new RateLimiterMemory({ points: policy.max, duration: policy.windowSeconds }),
        }),
      null,
      'rl:',
    );
  }

  async consume(policy: RateLimitPolicy, key: string, name = 'form'): Promise<RateLimitDecision> {
    const { prefix, limiter } = this.limiterFor(policy, name);
    let result: RateLimiterRes;
    let allowed = true;
    try {
      result = await limiter.consume(key);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      result = rejection;
      allowed = false;
    }
    this.snapshots?.touch(prefix, key);
    const resetSeconds = Math.max(1, Math.ceil(result.msBeforeNext / 1000));
    return { allowed, policy, remaining: Math.max(0, policy.max - result.consumedPoints), resetSeconds };
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

  private limiterFor(policy: RateLimitPolicy, name: string): { prefix: string; limiter: RateLimiterAbstract } {
    const prefix = `${this.namespace}${name}:${policy.max}:${policy.windowSeconds}`;
    let limiter = this.limiters.get(prefix);
    if (!limiter) {
      limiter = this.create(policy, prefix);
      this.limiters.set(prefix, limiter);
    }
    return { prefix, limiter };
  }
}
