import { sql, type RawBuilder } from 'kysely';
import { ledgerTable } from '../migrations.js';
import type { Db } from '../store.js';

/** One row as the driver gives it, by column name. */
export type TableRow = Record<string, unknown>;

/**
 * Every row of `table` in primary-key order, `batch` rows per query (keyset pagination, so
 * each query reads only its own rows and memory stays at one batch whatever the table's
 * size). Run inside a read transaction, the rows are those of its snapshot.
 */
export async function* readTableRows(db: Db, table: string, primaryKey: readonly string[], batch = 1_000): AsyncGenerator<TableRow> {
  if (primaryKey.length === 0) throw new Error(`table ${table} has no primary key`);
  const key = sql.join(primaryKey.map((column) => sql.ref(column)));
  let after: unknown[] | null = null;
  for (;;) {
    const where: RawBuilder<unknown> = after === null ? sql.raw('') : sql`where (${key}) > (${sql.join(after.map((value) => sql`${value}`))})`;
    const { rows }: { rows: TableRow[] } = await sql<TableRow>`select * from ${sql.table(table)} ${where} order by ${key} limit ${batch}`.execute(db);
    for (const row of rows) yield row;
    if (rows.length < batch) return;
    const last: TableRow = rows[rows.length - 1]!;
    after = primaryKey.map((column) => last[column]);
  }
}

/** Writes `rows` (each with every column named in `columns`) into `table` in one statement. */
export async function insertTableRows(db: Db, table: string, columns: readonly string[], rows: readonly (readonly unknown[])[]): Promise<void> {
  if (rows.length === 0) return;
  const values = sql.join(rows.map((row) => sql`(${sql.join(row.map((value) => sql`${value}`))})`));
  await sql`insert into ${sql.table(table)} (${sql.join(columns.map((column) => sql.ref(column)))}) values ${values}`.execute(db);
}

/** Whether `table` has any row. */
export async function tableHasRows(db: Db, table: string): Promise<boolean> {
  const { rows } = await sql<{ one: number }>`select 1 as one from ${sql.table(table)} limit 1`.execute(db);
  return rows.length > 0;
}

/** The rows of the migrations ledger, oldest first. */
export async function appliedMigrations(db: Db): Promise<{ version: number; name: string }[]> {
  const { rows } = await sql<{ version: number | bigint; name: string }>`select version, name from ${sql.table(ledgerTable)} order by version`.execute(db);
  return rows.map((row) => ({ version: Number(row.version), name: row.name }));
}
