import { sql } from 'kysely';
import { columnKind, type StoreCatalog, type TableInfo } from '../catalog.js';
import type { Db } from '../store.js';

/** The SQLite file's own account of its tables (`sqlite_schema` and the table pragmas). */
export function sqliteCatalog(db: Db): StoreCatalog {
  return {
    async tables() {
      const names = await sql<{ name: string }>`select name from sqlite_schema where type = 'table' and name not like 'sqlite\\_%' escape '\\' order by name`.execute(db);
      const tables: TableInfo[] = [];
      for (const { name } of names.rows) {
        const columns = await sql<{ name: string; type: string; pk: number | bigint }>`select name, type, pk from pragma_table_info(${name}) order by cid`.execute(db);
        const keys = await sql<{ table: string }>`select distinct "table" from pragma_foreign_key_list(${name})`.execute(db);
        tables.push({
          name,
          columns: columns.rows.map((column) => ({ name: column.name, kind: columnKind(column.type) })),
          primaryKey: columns.rows
            .filter((column) => Number(column.pk) > 0)
            .sort((a, b) => Number(a.pk) - Number(b.pk))
            .map((column) => column.name),
          references: keys.rows.map((key) => key.table).filter((table) => table !== name),
        });
      }
      return tables;
    },
    // Explicit ids written into an AUTOINCREMENT column move sqlite_sequence on by themselves.
    resetSequences: () => Promise.resolve(),
  };
}
