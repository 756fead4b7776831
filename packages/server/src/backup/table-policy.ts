import type { TableInfo } from '../store/catalog.js';
import { ledgerTable } from '../store/migrations.js';

/**
 * The tables a backup leaves out on purpose, and why (docs/server.md, "What an archive
 * holds"). Every other table the migrations made is backed up: a new table is in the next
 * backup without anyone listing it, and a test fails when a name here is no table.
 */
export const leftOutTables: Readonly<Record<string, string>> = {
  rate_limits: 'rate-limit windows: counters of the last minutes, volatile, rebuilt by the traffic that comes',
  file_blobs: 'stored contents: each is in the archive as files/{sha256}, and the restore stores it its target\'s way (a row, chunks, or a file on disk)',
  file_chunks: 'the chunks of stored contents on PostgreSQL: in the archive as files/{sha256}',
};

/**
 * The migrations ledger: in the archive (its rows say which migrations the store had), but
 * never written back; the restore migrates its target to the archive's level, which writes
 * the target dialect's own ledger.
 */
export const ledger = ledgerTable;

/**
 * The tables to back up, each after every table it references, so that a restore can write
 * them in archive order with foreign keys checked all along; ties by name.
 */
export function backupOrder(tables: readonly TableInfo[]): TableInfo[] {
  const kept = new Map(tables.filter((table) => !Object.hasOwn(leftOutTables, table.name)).map((table) => [table.name, table]));
  const ordered: TableInfo[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const place = (table: TableInfo): void => {
    if (placed.has(table.name)) return;
    if (visiting.has(table.name)) throw new Error(`the foreign keys of table ${table.name} form a cycle: no order writes them`);
    visiting.add(table.name);
    for (const parent of [...table.references].sort()) {
      const referenced = kept.get(parent);
      if (referenced) place(referenced);
    }
    visiting.delete(table.name);
    placed.add(table.name);
    ordered.push(table);
  };
  for (const name of [...kept.keys()].sort()) place(kept.get(name)!);
  return ordered;
}
