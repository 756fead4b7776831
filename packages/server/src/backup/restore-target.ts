import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { ServiceError } from '@svc/protocol';
import { openSnapshot } from '../store/open-snapshot.js';
import { tableHasRows } from '../store/queries/table-rows.js';
import { sqliteFileName } from '../store/sqlite/sqlite-store.js';
import { leftOutTables, ledger } from './table-policy.js';

export interface RestoreTarget {
  readonly dataDir: string;
  readonly databaseUrl?: string | undefined;
}

/**
 * A restore writes only into an empty store: no table with a row, but the migrations ledger
 * and the tables a backup leaves out (table-policy.ts): a store migrated but never started,
 * or whose restore failed, is still empty. Stored files alone do not count: contents no row
 * holds are the sweep's (a failed restore leaves those it stored, on disk or in file_blobs).
 * Looked at read-only, so a refusal writes nothing.
 */
export async function assertEmptyTarget(target: RestoreTarget): Promise<void> {
  const where = target.databaseUrl ? 'the database' : target.dataDir;
  if (!target.databaseUrl && !(await stat(join(target.dataDir, sqliteFileName)).catch(() => null))) return;
  const snapshot = await openSnapshot(target);
  try {
    for (const table of await snapshot.catalog.tables()) {
      if (table.name === ledger || Object.hasOwn(leftOutTables, table.name)) continue;
      if (await tableHasRows(snapshot.db, table.name)) throw notEmpty(where, `its table ${table.name} has rows`);
    }
  } finally {
    await snapshot.close();
  }
}

function notEmpty(where: string, why: string): ServiceError {
  return new ServiceError('conflict', `${where} is not an empty store (${why}): restore into a new database or an empty data directory`);
}

