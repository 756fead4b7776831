import type { Kysely } from 'kysely';
import type { BackendCapabilities } from './capabilities.js';
import type { StoreCatalog } from './catalog.js';
import type { DependencyFailure, StoreDependency } from './dependency-failure.js';
import type { FileStore } from './files/file-store.js';
import type { BatchOptions, PreparedSubmission, SubmissionOutcome } from './submission-batch.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

/**
 * The storage port the core owns. Queries are written once against `db` (Kysely speaks
 * both dialects); what differs between SQLite and PostgreSQL is in `capabilities` and in
 * the two adapters that implement this interface. Its members, by concern: the data (`db`,
 * `capabilities`, `files`, `transaction`, `commitSubmissions`, `scrubDeleted`) and how its
 * failures are classified; `signals`, the announcements of committed changes; `health`;
 * and the lifecycle (`created`, `close`).
 */
export interface Store {
  readonly db: Db;
  readonly capabilities: BackendCapabilities;
  readonly files: FileStore;
  /** The database's own account of its tables (backups and restores read it). */
  readonly catalog: StoreCatalog;
  /**
   * Runs `work` in one transaction; on SQLite and PostgreSQL alike the commit is durable
   * (fsync'd) before the promise resolves, unless `durable: false`: then the commit is
   * atomic and survives the process being killed, but a power cut may undo it. Only for
   * work that is safe to lose and redo (the delivery worker's fan-out and claims).
   */
  transaction<T>(work: (trx: Db) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * The form endpoint's write path: commits a batch of submissions and their outbox events
   * at once, claiming idempotency keys, durably (fsync'd) before it resolves. Each backend
   * does it its fastest way: PostgreSQL in one statement, SQLite in a writer thread.
   */
  commitSubmissions(items: readonly PreparedSubmission[], options: BatchOptions): Promise<SubmissionOutcome[]>;
  /**
   * After an erasure: removes what the backend still holds of deleted rows outside its
   * tables where it can (SQLite: the write-ahead log, checkpointed and truncated).
   */
  scrubDeleted(): Promise<void>;
  /** What a failed statement violated, decided by the backend's own error codes. */
  readonly classifyFailure: (error: unknown) => FailureKind;
  /**
   * Which dependency a failure is (the database unreachable or past its timeout, the disk
   * full or failing, the data dir gone), decided by the backend's own error codes; null
   * when it is the statement's or the request's own failure.
   */
  readonly dependencyFailure: (error: unknown) => DependencyFailure | null;
  /** Committed changes announced to this instance and the others. */
  readonly signals: StoreSignals;
  /**
   * Health checks, one per dependency: null when it can do its part of storing a
   * submission, else why not. `write` also proves the disk takes a write (after a failure).
   */
  readonly health: Readonly<Record<StoreDependency, (write: boolean) => Promise<string | null>>>;
  /**
   * Runs `work` unless another holder of the lock `key` is running it, on any instance
   * (PostgreSQL: a session advisory lock; SQLite: one process serves the data dir, so in
   * process). Null when it was held elsewhere and `work` did not run.
   */
  exclusive<T>(key: number, work: () => Promise<T>): Promise<{ readonly value: T } | null>;
  /** True when this open created a new, empty store (no database file, or no tables). */
  readonly created: boolean;
  close(): Promise<void>;
}

/**
 * The kinds of committed change that other parts, in this instance and in the others, wait
 * for: in process on SQLite (one process serves a data dir), `LISTEN/NOTIFY` on PostgreSQL.
 */
export interface StoreSignals {
  /** New outbox events: wakes the delivery worker. */
  readonly events: StoreSignal;
  /** A build was queued: wakes the build workers (and only them: a form post does not). */
  readonly builds: StoreSignal;
  /**
   * A change to what a hostname serves (a project's domains, an environment's live deploy,
   * a deploy finished or failed, stored contents removed): forgets what hosting holds.
   */
  readonly sites: StoreSignal;
}

/** One kind of change: announced after its commit, heard by every listener of every instance. */
export interface StoreSignal {
  /** Call after committing such a change: tells this instance's listeners and the other instances'. */
  announce(): void;
  /**
   * Registers a listener; it is also called when announcements may have been missed (the
   * PostgreSQL listening connection came back). Returns a function that removes it.
   */
  on(listener: () => void): () => void;
  /** False while announcements made by another instance could go unheard (no listening connection). */
  hears(): boolean;
}

/** A database failure as the core needs to know it: a unique key, a foreign key, or anything else. */
export type FailureKind = 'unique' | 'foreign_key' | 'other';

export interface TransactionOptions {
  /** Default true: the commit is fsync'd before the transaction resolves. */
  readonly durable?: boolean;
}

export interface StoreOptions {
  /** Directory for the SQLite file and stored files (`--data-dir`). */
  readonly dataDir: string;
  /** `postgres://…` selects PostgreSQL (`--database-url`). */
  readonly databaseUrl?: string | undefined;
  /** Called with failures of background work (listeners, notifications). */
  readonly onBackgroundError?: (error: unknown, context: string) => void;
  /** How long a database operation may wait (a lock, a connection, a statement) before it fails; default 5 s. */
  readonly databaseTimeoutMs?: number;
  /** Below this much free space under the data dir, storage counts as full; default 64 MiB. */
  readonly minFreeBytes?: number;
  /**
   * Apply migrations only up to this version (a restore writes an older archive's rows at
   * its own level, then opens the store again to migrate the rest); default all.
   */
  readonly migrateUpTo?: number;
}

export const defaultDatabaseTimeoutMs = 5_000;
export const defaultMinFreeBytes = 64 * 1024 * 1024;
