import type { RateLimitSnapshots } from './snapshots.js';
import { type CountedWindow, type WindowCounter, WindowTable } from './window-table.js';

/**
 * Windows in this process, one bounded table per limit (`form`, `cli`, `auth`), so a flood
 * of one limit's clients never drops another limit's windows. With snapshots, counts are
 * written behind to the store and restored at start, so they survive a restart.
 */
export class MemoryCounter implements WindowCounter {
  private readonly tables = new Map<string, WindowTable>();

  constructor(
    private readonly capacity: number,
    private readonly snapshots: RateLimitSnapshots | null = null,
    private readonly onDropped: (limit: string) => void = () => undefined,
  ) {}

  /** Windows held per limit. */
  held(): Map<string, number> {
    return new Map([...this.tables].map(([name, table]) => [name, table.size]));
  }

  /** Restores the windows saved before a restart, then starts saving. */
  async open(): Promise<void> {
    if (!this.snapshots) return;
    const now = Date.now();
    for (const row of await this.snapshots.load(now)) this.table(limitName(row.key)).restore(row.key, row.points, row.expires_at, now);
    this.snapshots.start((id) => this.table(limitName(id)).get(id, Date.now()));
  }

  add(name: string, id: string, windowSeconds: number): CountedWindow {
    const window = this.table(name).add(id, windowSeconds * 1000, Date.now());
    this.snapshots?.touch(id);
    return window;
  }

  read(name: string, id: string): CountedWindow | undefined {
    return this.tables.get(name)?.get(id, Date.now());
  }

  async close(): Promise<void> {
    await this.snapshots?.stop();
  }

  private table(name: string): WindowTable {
    let table = this.tables.get(name);
    if (!table) {
      table = new WindowTable(this.capacity, () => this.onDropped(name));
      this.tables.set(name, table);
    }
    return table;
  }
}

/** The limit a window belongs to: its id begins `<name>:<max>:<window seconds>|`. */
function limitName(id: string): string {
  const end = id.indexOf(':');
  return end < 0 ? id : id.slice(0, end);
}
