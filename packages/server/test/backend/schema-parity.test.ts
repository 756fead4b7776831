import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestEnvironment, selectBackend, type TestEnvironment } from '@svc/testkit';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const backend = await selectBackend();

interface Shape {
  columns: Record<string, string[]>;
  indexes: string[];
}

/** Column names and nullability per table, and index names: what both dialects must agree on. */
async function sqliteShape(store: Store): Promise<Shape> {
  const tables = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(store.db);
  const columns: Record<string, string[]> = {};
  for (const { name } of tables.rows) {
    const info = await sql<{ name: string; notnull: number; pk: number }>`select name, "notnull", pk from pragma_table_info(${name})`.execute(store.db);
    columns[name] = info.rows.map((column) => `${column.name}${column.notnull || column.pk ? ' not null' : ''}`).sort();
  }
  const indexes = await sql<{ name: string }>`select name from sqlite_master where type = 'index' and name not like 'sqlite_%'`.execute(store.db);
  return { columns, indexes: indexes.rows.map((row) => row.name).sort() };
}

async function postgresShape(store: Store): Promise<Shape> {
  const info = await sql<{ table_name: string; column_name: string; is_nullable: string }>`
    select table_name, column_name, is_nullable from information_schema.columns where table_schema = 'public'`.execute(store.db);
  const columns: Record<string, string[]> = {};
  for (const row of info.rows) (columns[row.table_name] ??= []).push(`${row.column_name}${row.is_nullable === 'NO' ? ' not null' : ''}`);
  for (const list of Object.values(columns)) list.sort();
  const indexes = await sql<{ indexname: string }>`select indexname from pg_indexes where schemaname = 'public' and indexname not like '%_pkey' and indexname not like '%_key'`.execute(store.db);
  return { columns, indexes: indexes.rows.map((row) => row.indexname).sort() };
}

// The two dialects' migrations are written separately; this keeps them describing one schema.
describe.runIf(backend.available && backend.name === 'postgres')('the SQLite and PostgreSQL migrations', () => {
  let environment: TestEnvironment;
  let postgres: Store;
  let sqlite: Store;
  let sqliteDir: string;

  beforeAll(async () => {
    environment = await createTestEnvironment();
    postgres = await environment.openStore();
    sqliteDir = await mkdtemp(join(tmpdir(), 'svc-parity-'));
    sqlite = await openStore({ dataDir: sqliteDir });
  });
  afterAll(async () => {
    await sqlite.close();
    await postgres.close();
    await rm(sqliteDir, { recursive: true, force: true });
    await environment.cleanup();
  });

  it('describe the same tables, columns, nullability and indexes', async () => {
    const lite = await sqliteShape(sqlite);
    const pg = await postgresShape(postgres);
    // Both keep small files whole in file_blobs; PostgreSQL keeps larger ones in chunks
    // (a null content), SQLite on disk.
    delete pg.columns['file_chunks'];
    pg.columns['file_blobs'] = pg.columns['file_blobs']!.map((column) => (column === 'content' ? 'content not null' : column));
    expect(lite.columns).toEqual(pg.columns);
    expect(lite.indexes).toEqual(pg.indexes);
  });
});
