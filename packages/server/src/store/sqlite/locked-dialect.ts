import type SqliteDatabase from 'better-sqlite3';
import {
  SelectQueryNode,
  SqliteDialect,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { StatementCache } from './statement-cache.js';
import type { WriteLock } from './write-lock.js';

/**
 * Kysely's SQLite dialect on the main thread's connection, where every write takes the
 * process's write lock first and keeps it until its transaction ends, so that it never
 * meets the submission writer thread inside SQLite. Reads never wait: in WAL mode readers
 * do not block writers, nor writers readers. Statements are kept prepared (statement-cache.ts).
 */
export class LockedSqliteDialect extends SqliteDialect {
  constructor(
    private readonly database: SqliteDatabase.Database,
    private readonly lock: WriteLock,
  ) {
    super({ database });
  }

  override createDriver(): Driver {
    return new LockedDriver(super.createDriver(), this.database, this.lock);
  }
}

class LockedDriver implements Driver {
  private readonly connections = new WeakMap<DatabaseConnection, LockedConnection>();
  private readonly statements: StatementCache;

  constructor(
    private readonly inner: Driver,
    private readonly database: SqliteDatabase.Database,
    private readonly lock: WriteLock,
  ) {
    this.statements = new StatementCache(database);
  }

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    let locked = this.connections.get(connection);
    if (!locked) {
      locked = new LockedConnection(connection, this.database, this.lock, this.statements);
      this.connections.set(connection, locked);
    }
    return locked;
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    return this.inner.beginTransaction(connection, settings);
  }

  commitTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.commitTransaction(connection);
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.inner.rollbackTransaction(connection);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection((connection as LockedConnection).inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

class LockedConnection implements DatabaseConnection {
  private release: (() => void) | null = null;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly database: SqliteDatabase.Database,
    private readonly lock: WriteLock,
    private readonly statements: StatementCache,
  ) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    // Raw statements (begin, commit, pragmas…) count as writes; typed selects are reads.
    if (this.release === null && !SelectQueryNode.is(compiled.query)) this.release = await this.lock.acquire();
    try {
      return this.statements.execute<R>(compiled);
    } finally {
      if (this.release !== null && !this.database.inTransaction) {
        const release = this.release;
        this.release = null;
        release();
      }
    }
  }

  streamQuery<R>(compiled: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(compiled, chunkSize);
  }
}
