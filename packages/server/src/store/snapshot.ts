import type { Readable } from 'node:stream';
import type { StoreCatalog } from './catalog.js';
import type { Db } from './store.js';

/**
 * A consistent, read-only view of a store while its server keeps running: one read
 * transaction (SQLite: a deferred transaction on a WAL database, which sees the database as
 * it was at its first read; PostgreSQL: `REPEATABLE READ READ ONLY`, as pg_dump takes).
 * What a backup reads (docs/server.md, "Backups and moving").
 */
export interface StoreSnapshot {
  readonly dialect: 'sqlite' | 'postgres';
  /** Reads within the snapshot's transaction; integers come as `bigint` when past 2^53. */
  readonly db: Db;
  readonly catalog: StoreCatalog;
  /**
   * Every stored content, each once: the rows of `file_blobs` and `file_chunks` in the
   * snapshot, and on SQLite the files under `<data dir>/files` found once the snapshot began
   * (contents are named by their hash and never change; one removed since is left out).
   */
  files(): AsyncIterable<SnapshotFile>;
  /** Ends the transaction and closes the connection. */
  close(): Promise<void>;
}

export interface SnapshotFile {
  readonly sha256: string;
  readonly size: number;
  /** The bytes; null when the file was removed after the snapshot began (SQLite's files on disk). */
  open(): Promise<Readable | null>;
}

export interface SnapshotOptions {
  readonly dataDir: string;
  readonly databaseUrl?: string | undefined;
}
