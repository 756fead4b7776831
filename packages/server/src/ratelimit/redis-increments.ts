import type { Redis } from 'ioredis';

/** Most counters sent in one script call. */
const maxBatch = 256;

// A fixed-window increment, for many keys at once: each key is created with its window's
// expiry, incremented, and answered with its count and the milliseconds left, as
// `{consumed, ttl}` pairs in order.
const incrementScript = `
local answers = {}
for index, key in ipairs(KEYS) do
  local points = ARGV[2 * index - 1]
  local seconds = ARGV[2 * index]
  redis.call('set', key, 0, 'EX', seconds, 'NX')
  local consumed = redis.call('incrby', key, points)
  local ttl = redis.call('pttl', key)
  if ttl == -1 then
    redis.call('expire', key, seconds)
    ttl = 1000 * seconds
  end
  answers[index] = {consumed, ttl}
end
return answers`;

// A window's count and milliseconds left, counting nothing: `{false, -2}` when there is none.
const readScript = `return {redis.call('get', KEYS[1]), redis.call('pttl', KEYS[1])}`;

interface Pending {
  readonly key: string;
  readonly points: number;
  readonly seconds: number;
  readonly resolve: (answer: [number, number]) => void;
  readonly reject: (error: unknown) => void;
}

type IncrementCommand = (numberOfKeys: number, ...keysAndArguments: (string | number)[]) => Promise<[number, number][]>;
type ReadCommand = (numberOfKeys: number, key: string) => Promise<[string | null, number]>;

/**
 * The rate-limit increments of one event-loop turn, sent to Redis as one script call:
 * one write to the socket for all of them instead of one per request, which was a tenth of
 * the main thread on the PostgreSQL + Redis form endpoint (bench/README.md). Our own
 * batching, not ioredis' auto-pipelining: with a command timeout that ended pipelines with
 * fewer answers than commands when Redis froze (docs/server.md). A failed call fails every
 * increment in it, and each falls back to the per-instance counter.
 */
export class RedisIncrements {
  private readonly pending: Pending[] = [];
  private scheduled = false;
  private readonly command: IncrementCommand;
  private readonly readCommand: ReadCommand;

  constructor(private readonly client: Redis) {
    client.defineCommand('svcIncrementWindows', { lua: incrementScript });
    client.defineCommand('svcReadWindow', { lua: readScript });
    const commands = client as unknown as { svcIncrementWindows: IncrementCommand; svcReadWindow: ReadCommand };
    this.command = commands.svcIncrementWindows.bind(client);
    this.readCommand = commands.svcReadWindow.bind(client);
  }

  get ready(): boolean {
    return this.client.status === 'ready';
  }

  /** Adds `points` to `key`, whose window lasts `seconds`: resolves with [count, milliseconds left]. */
  increment(key: string, points: number, seconds: number): Promise<[number, number]> {
    return new Promise((resolve, reject) => {
      this.pending.push({ key, points, seconds, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => this.flush());
    });
  }

  /** The count of `key` and the milliseconds left of its window; null when it has none. */
  async read(key: string): Promise<[number, number] | null> {
    const [count, left] = await this.readCommand(1, key);
    return count === null || left <= 0 ? null : [Number(count), Number(left)];
  }

  private flush(): void {
    this.scheduled = false;
    while (this.pending.length > 0) void this.send(this.pending.splice(0, maxBatch));
  }

  private async send(batch: readonly Pending[]): Promise<void> {
    try {
      const answers = await this.command(batch.length, ...batch.map((item) => item.key), ...batch.flatMap((item) => [item.points, item.seconds]));
      batch.forEach((item, index) => {
        const answer = answers[index];
        if (answer) item.resolve([Number(answer[0]), Number(answer[1])]);
        else item.reject(new Error('Redis answered fewer rate-limit counters than were sent'));
      });
    } catch (error) {
      for (const item of batch) item.reject(error);
    }
  }
}
