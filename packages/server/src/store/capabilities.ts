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
}

export const sqliteCapabilities: BackendCapabilities = {
  dialect: 'sqlite',
  skipLocked: false,
  writeConcurrency: 1,
  rowLocks: false,
  singleInstance: true,
};

export const postgresCapabilities: BackendCapabilities = {
  dialect: 'postgres',
  skipLocked: true,
  writeConcurrency: 4,
  rowLocks: true,
  singleInstance: false,
};
