import { setBounded } from './bounded-map.js';

/** Announcements of a change (the store's signals are such): heard here, and maybe missed. */
export interface ChangeSignal {
  /** Registers a listener; returns a function that removes it. */
  on(listener: () => void): () => void;
  /** False while announcements could go unheard. */
  hears(): boolean;
}

export interface HeldUntilAnnouncedOptions {
  /** Entries held at once (the oldest go first). */
  readonly maxEntries: number;
  /** A safety net under the announcements: no entry is used for longer than this. */
  readonly maxAgeMs: number;
  /** While announcements from other instances could go unheard, entries are used this long (0: not at all). */
  readonly unheardMaxAgeMs: number;
}

/**
 * Answers read from the database and held in memory until a change is announced (for
 * example `Store.signals.sites`, docs/hosting.md), when everything held is forgotten at once.
 * A read that began before an announcement is not held after it.
 */
export class HeldUntilAnnounced<V> {
  private readonly held = new Map<string, { value: V; at: number }>();
  /** Bumped by every announcement. */
  private generation = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly changes: ChangeSignal,
    private readonly options: HeldUntilAnnouncedOptions,
    private readonly now: () => number = Date.now,
  ) {
    this.unsubscribe = changes.on(() => {
      this.generation += 1;
      this.held.clear();
    });
  }

  async get(key: string, read: () => Promise<V>): Promise<V> {
    const now = this.now();
    const entry = this.held.get(key);
    const maxAge = this.changes.hears() ? this.options.maxAgeMs : this.options.unheardMaxAgeMs;
    if (entry && now - entry.at < maxAge) return entry.value;
    const generation = this.generation;
    const value = await read();
    if (generation === this.generation) setBounded(this.held, key, { value, at: now }, this.options.maxEntries);
    return value;
  }

  close(): void {
    this.unsubscribe();
  }
}
