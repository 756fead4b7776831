import type { Kysely } from 'kysely';
import type { BackendCapabilities } from './capabilities.js';
import type { FileStore } from './files/file-store.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

/**
 * The storage port the core owns. Queries are written once against `db` (Kysely speaks
 * both dialects); what differs between SQLite and PostgreSQL is in `capabilities` and in
 * the two adapters that implement this interface.
 */
export interface Store {
  readonly db: Db;
  readonly capabilities: BackendCapabilities;
  readonly files: FileStore;
  /**
   * Runs `work` in one transaction; on SQLite and PostgreSQL alike the commit is durable
   * (fsync'd) before the promise resolves.
   */
  transaction<T>(work: (trx: Db) => Promise<T>): Promise<T>;
  /** Call after committing new outbox events: wakes delivery workers here and elsewhere. */
  announceEvents(): void;
  /** Registers a wake-up listener for new outbox events; returns a function that removes it. */
  onEvents(listener: () => void): () => void;
  /** Checks that the database answers. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** Directory for the SQLite file and stored files (`--data-dir`). */
  readonly dataDir: string;
  /** `postgres://…` selects PostgreSQL (`--database-url`). */
  readonly databaseUrl?: string | undefined;
  /** Called with failures of background work (listeners, notifications). */
  readonly onBackgroundError?: (error: unknown, context: string) => void;
}
