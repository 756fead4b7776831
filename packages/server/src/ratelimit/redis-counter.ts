import type { MemoryCounter } from './memory-counter.js';
import type { RedisIncrements } from './redis-increments.js';
import type { CountedWindow, WindowCounter } from './window-table.js';

/**
 * Windows in Redis, atomic and shared by every instance; each key expires with its window,
 * so Redis holds only open windows. While Redis is unreachable (or a command times out)
 * this instance counts on its own in `fallback`, a bounded in-memory counter, rather than
 * failing requests (docs/server.md, "When a dependency fails").
 */
export class RedisCounter implements WindowCounter {
  constructor(
    private readonly redis: RedisIncrements,
    /** Put before every window id, e.g. `svc:rl:`. */
    private readonly prefix: string,
    private readonly fallback: MemoryCounter,
    /** Told of each count made in `fallback`. */
    private readonly onFallback: () => void = () => undefined,
  ) {}

  async add(name: string, id: string, windowSeconds: number): Promise<CountedWindow> {
    if (this.redis.ready) {
      const counted = await this.redis.increment(this.prefix + id, 1, windowSeconds).catch(() => null);
      if (counted !== null) return { count: counted[0], expiresAt: Date.now() + counted[1] };
    }
    this.onFallback();
    return this.fallback.add(name, id, windowSeconds);
  }

  async read(name: string, id: string): Promise<CountedWindow | undefined> {
    if (!this.redis.ready) return this.fallback.read(name, id);
    const answer = await this.redis.read(this.prefix + id).then((window) => window ?? undefined, () => false as const);
    if (answer === false) return this.fallback.read(name, id);
    return answer === undefined ? undefined : { count: answer[0], expiresAt: Date.now() + answer[1] };
  }

  close(): Promise<void> {
    return this.fallback.close();
  }
}
