import { opendir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceError } from '@svc/protocol';
import { openSnapshot } from '../store/open-snapshot.js';
import { tableHasRows } from '../store/queries/table-rows.js';
import { sqliteFileName } from '../store/sqlite/sqlite-store.js';
import { ledger } from './table-policy.js';

export interface RestoreTarget {
  readonly dataDir: string;
  readonly databaseUrl?: string | undefined;
}

/**
 * A restore writes only into an empty store: no table with a row (the migrations ledger
 * aside: a store migrated but never started, or whose restore failed, is still empty), and
 * on SQLite no stored file. Looked at read-only, so a refusal writes nothing.
 */
export async function assertEmptyTarget(target: RestoreTarget): Promise<void> {
  const where = target.databaseUrl ? 'the database' : target.dataDir;
  if (!target.databaseUrl) {
    if (await hasStoredFiles(join(target.dataDir, 'files'))) throw notEmpty(where, 'it has stored files');
    if (!(await stat(join(target.dataDir, sqliteFileName)).catch(() => null))) return;
  }
  const snapshot = await openSnapshot(target);
  try {
    for (const table of await snapshot.catalog.tables()) {
      if (table.name !== ledger && (await tableHasRows(snapshot.db, table.name))) throw notEmpty(where, `its table ${table.name} has rows`);
    }
  } finally {
    await snapshot.close();
  }
}

function notEmpty(where: string, why: string): ServiceError {
  return new ServiceError('conflict', `${where} is not an empty store (${why}): restore into a new database or an empty data directory`);
}

async function hasStoredFiles(directory: string): Promise<boolean> {
  const entries = await opendir(directory).catch(() => null);
  if (!entries) return false;
  for await (const entry of entries) {
    // Leaving the loop closes the directory.
    if (entry.name !== '.staging') return true;
  }
  return false;
}
