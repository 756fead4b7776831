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
  ) {}

  async add(name: string, id: string, windowSeconds: number): Promise<CountedWindow> {
    if (!this.redis.ready) return this.fallback.add(name, id, windowSeconds);
    try {
      const [count, left] = await this.redis.increment(this.prefix + id, 1, windowSeconds);
      return { count, expiresAt: Date.now() + left };
    } catch {
      return this.fallback.add(name, id, windowSeconds);
    }
  }

  async read(name: string, id: string): Promise<CountedWindow | undefined> {
    if (!this.redis.ready) return this.fallback.read(name, id);
    try {
      const answer = await this.redis.read(this.prefix + id);
      return answer === null ? undefined : { count: answer[0], expiresAt: Date.now() + answer[1] };
    } catch {
      return this.fallback.read(name, id);
    }
  }

  close(): Promise<void> {
    return this.fallback.close();
  }
}
