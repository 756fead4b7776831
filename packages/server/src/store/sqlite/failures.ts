import { causes, storageFailure, type DependencyFailure } from '../dependency-failure.js';
import type { FailureKind } from '../store.js';

/**
 * SQLite's constraint failures by their extended result codes; errors that crossed the
 * submission thread arrive as plain errors with the message only, so the message decides
 * for those.
 */
export function classifySqliteFailure(error: unknown): FailureKind {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : '';
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || /^(UNIQUE|PRIMARY KEY) constraint failed/.test(message)) return 'unique';
  if (code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || /FOREIGN KEY constraint failed/.test(message)) return 'foreign_key';
  return 'other';
}

/** SQLite result codes (primary, before `_`) that mean the file or the disk under it failed, not the statement. */
const storageCodes: Record<string, string> = {
  SQLITE_FULL: 'the disk is full',
  SQLITE_IOERR: 'a disk I/O error',
  SQLITE_READONLY: 'the database file is read-only',
  SQLITE_CANTOPEN: 'the database file cannot be opened',
  SQLITE_CORRUPT: 'the database file is damaged',
  SQLITE_NOTADB: 'the database file is damaged',
};

/**
 * A failure of the disk under the SQLite file or of the data dir (the file store's), or a
 * lock held past `--database-timeout`; null for anything that is the statement's own.
 */
export function sqliteDependencyFailure(error: unknown, dataDir: string): DependencyFailure | null {
  for (const failure of causes(error)) {
    const code = (failure as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('SQLITE_')) continue;
    const primary = code.split('_', 2).join('_');
    const reason = storageCodes[primary];
    if (reason) return { dependency: 'storage', reason: `${reason} (${code})` };
    if (primary === 'SQLITE_BUSY') return { dependency: 'database', reason: `the database stayed locked past --database-timeout (${code})` };
  }
  return storageFailure(error, dataDir);
}
