import type { Redis } from 'ioredis';
import { ClientKeys, type RateLimitedClient } from './client-keys.js';
import { MemoryCounter } from './memory-counter.js';
import type { RateLimitPolicy } from './policy.js';
import { RedisCounter } from './redis-counter.js';
import { RedisIncrements } from './redis-increments.js';
import type { RateLimitSnapshots } from './snapshots.js';
import type { CountedWindow, WindowCounter } from './window-table.js';

export type { RateLimitedClient } from './client-keys.js';

export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly policy: RateLimitPolicy;
  readonly remaining: number;
  /** Whole seconds until the window resets: the true wait when not allowed (at least 1). */
  readonly resetSeconds: number;
}

/**
 * Fixed windows per policy and key. `name` keeps the counts of different limits apart
 * (`form` for the form endpoint and Pinpoints, `cli` for the CLI API, `auth` for failed
 * authentications).
 */
export interface RateLimiter {
  /** Counts one request for `key` (not an address: a token id) under `policy`. */
  consume(policy: RateLimitPolicy, key: string, name?: string): Promise<RateLimitDecision>;
  /** Counts one request of a client address in a scope (client-keys.ts says what is counted of it). */
  consumeClient(policy: RateLimitPolicy, client: RateLimitedClient, name?: string): Promise<RateLimitDecision>;
  /** Whether the client is still within `policy`, counting nothing (for limits on failures only). */
  peekClient(policy: RateLimitPolicy, client: RateLimitedClient, name?: string): Promise<RateLimitDecision>;
  /** Windows this process holds in memory, per limit (with Redis, those of its fallback). */
  windowsHeld(): ReadonlyMap<string, number>;
  close(): Promise<void>;
}

/** Told of what a flood or an outage does to the limiter (the server counts them in its metrics). */
export interface RateLimitObserver {
  /** A window of `limit` was dropped to stay within `maxKeys`. */
  windowDropped(limit: string): void;
  /** A count was made in this process because Redis was unreachable or slow. */
  redisFallback(): void;
}

/** Windows each limit of a process keeps in memory (docs/server.md, "Limits and timeouts"). */
export const defaultMaxKeys = 100_000;

export interface RateLimiterSettings {
  /** Windows each limit keeps in memory, and networks watched for crowds; the least recent go first. */
  readonly maxKeys: number;
  /** The secret of the address hashes in keys (`clientKeySecret`). */
  readonly secret: Uint8Array;
  /** Distinct /64s of one /48 in a scope and window before it counts as one client (tests lower it). */
  readonly foldAfter?: number;
  readonly observer?: RateLimitObserver;
}

/**
 * The rate limits: in memory (with write-behind snapshots to the store, so counts survive
 * a restart) on one machine, or atomically in Redis when instances share it. Memory is
 * bounded under any flood of clients: each limit keeps at most `maxKeys` windows and drops
 * the one counted least recently, so a newcomer is always counted as itself and never shares
 * a count with the rest of the instance (docs/server.md, "Limits and timeouts").
 */
export class WindowRateLimiter implements RateLimiter {
  private constructor(
    private readonly counter: WindowCounter,
    private readonly memory: MemoryCounter,
    private readonly clients: ClientKeys,
  ) {}

  static async inMemory(settings: RateLimiterSettings, snapshots: RateLimitSnapshots | null): Promise<WindowRateLimiter> {
    const memory = memoryCounter(settings, snapshots);
    await memory.open();
    return new WindowRateLimiter(memory, memory, clientKeys(settings));
  }

  /** Counts in this process only, forgotten when it ends: for what runs operations outside `svc serve` (tests, the harness). */
  static inProcess(settings: RateLimiterSettings): WindowRateLimiter {
    const memory = memoryCounter(settings, null);
    return new WindowRateLimiter(memory, memory, clientKeys(settings));
  }

  static inRedis(client: Redis, keyPrefix: string, settings: RateLimiterSettings): WindowRateLimiter {
    const fallback = memoryCounter(settings, null);
    const counter = new RedisCounter(new RedisIncrements(client), `${keyPrefix}rl:`, fallback, () => settings.observer?.redisFallback());
    return new WindowRateLimiter(counter, fallback, clientKeys(settings));
  }

  async consume(policy: RateLimitPolicy, key: string, name = 'form'): Promise<RateLimitDecision> {
    return decide(policy, await this.counter.add(name, windowId(policy, name, key), policy.windowSeconds));
  }

  async consumeClient(policy: RateLimitPolicy, client: RateLimitedClient, name = 'form'): Promise<RateLimitDecision> {
    const key = this.clients.key(client, policy.windowSeconds, true, Date.now());
    return decide(policy, await this.counter.add(name, windowId(policy, name, key), policy.windowSeconds));
  }

  async peekClient(policy: RateLimitPolicy, client: RateLimitedClient, name = 'form'): Promise<RateLimitDecision> {
    const key = this.clients.key(client, policy.windowSeconds, false, Date.now());
    const window = await this.counter.read(name, windowId(policy, name, key));
    return decide(policy, window ?? { count: 0, expiresAt: Date.now() + policy.windowSeconds * 1000 }, true);
  }

  windowsHeld(): ReadonlyMap<string, number> {
    return this.memory.held();
  }

  close(): Promise<void> {
    return this.counter.close();
  }
}

function memoryCounter(settings: RateLimiterSettings, snapshots: RateLimitSnapshots | null): MemoryCounter {
  return new MemoryCounter(settings.maxKeys, snapshots, (limit) => settings.observer?.windowDropped(limit));
}

function clientKeys(settings: RateLimiterSettings): ClientKeys {
  return new ClientKeys(settings.secret, settings.maxKeys, settings.foldAfter);
}

/** `<name>:<max>:<window seconds>|<key>`: a policy's windows are its own. */
function windowId(policy: RateLimitPolicy, name: string, key: string): string {
  return `${name}:${policy.max}:${policy.windowSeconds}|${key}`;
}

/** A counted request is allowed while the count is within the quota; a peek while one more would be. */
function decide(policy: RateLimitPolicy, window: CountedWindow, peek = false): RateLimitDecision {
  const resetSeconds = Math.max(1, Math.ceil((window.expiresAt - Date.now()) / 1000));
  const allowed = peek ? window.count < policy.max : window.count <= policy.max;
  return { allowed, policy, remaining: Math.max(0, policy.max - window.count), resetSeconds };
}
