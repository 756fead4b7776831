import { sql, type RawBuilder, type SqlBool } from 'kysely';

/**
 * Every difference between the backends, in one table (pg-boss's "attorney"): shared
 * queries ask these questions instead of testing the dialect by name.
 */
export interface BackendCapabilities {
  readonly dialect: 'sqlite' | 'postgres';
  /** Queue claims can skip rows other workers hold (`FOR UPDATE SKIP LOCKED`). */
  readonly skipLocked: boolean;
  /** Write transactions worth running at once (SQLite has a single writer). */
  readonly writeConcurrency: number;
  /**
   * Transactions can lock the rows they read (`FOR UPDATE`). Without it (SQLite) write
   * transactions run one at a time, which is stronger.
   */
  readonly rowLocks: boolean;
  /**
   * Only one server uses the store at a time (SQLite's data dir): at start, work another
   * process held (a running build) was left by a server that stopped.
   */
  readonly singleInstance: boolean;
  /**
   * Whether a top-level field of a JSON document kept as text is JSON `true` (never null:
   * false when the field is absent or anything else).
   */
  readonly jsonFieldIsTrue: (column: string, key: string) => RawBuilder<SqlBool>;
}

export const sqliteCapabilities: BackendCapabilities = {
  dialect: 'sqlite',
  skipLocked: false,
  writeConcurrency: 1,
  rowLocks: false,
  singleInstance: true,
  jsonFieldIsTrue: (column, key) => sql<SqlBool>`(json_type(${sql.ref(column)}, ${sql.lit(`$.${key}`)}) IS 'true')`,
};

export const postgresCapabilities: BackendCapabilities = {
  dialect: 'postgres',
  skipLocked: true,
  writeConcurrency: 4,
  rowLocks: true,
  singleInstance: false,
  jsonFieldIsTrue: (column, key) => sql<SqlBool>`coalesce((${sql.ref(column)}::json -> ${sql.lit(key)})::text = 'true', false)`,
};
