import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestEnvironment, selectBackend, type TestEnvironment } from '@svc/testkit';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

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

/**
 * The tables and columns the query builder is told of (`Database` in store/schema.ts), read
 * with the TypeScript compiler: a column is nullable when the type it selects admits null
 * (`Generated<T>` and other column types select their first argument).
 */
function declaredShape(): Record<string, string[]> {
  const file = fileURLToPath(new URL('../../src/store/schema.ts', import.meta.url));
  const options = { strict: true, noEmit: true, types: [], lib: ['lib.es2022.d.ts'], module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext };
  const program = ts.createProgram([file], options);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const module = source && checker.getSymbolAtLocation(source);
  const database = module && checker.getExportsOfModule(module).find((symbol) => symbol.name === 'Database');
  if (!database) throw new Error('store/schema.ts exports no Database interface');
  const columns: Record<string, string[]> = {};
  for (const table of checker.getDeclaredTypeOfSymbol(database).getProperties()) {
    columns[table.name] = checker
      .getTypeOfSymbol(table)
      .getProperties()
      .map((column) => {
        const type = checker.getTypeOfSymbol(column);
        const selected = type.getProperty('__select__');
        const selects = selected ? checker.getTypeOfSymbol(selected) : type;
        const nullable = (selects.isUnion() ? selects.types : [selects]).some((member) => (member.flags & ts.TypeFlags.Null) !== 0);
        return `${column.name}${nullable ? '' : ' not null'}`;
      })
      .sort();
  }
  return columns;
}

// What the store's adapters keep for themselves, outside the query builder's tables.
const undeclared = ['svc_migrations'];

// The query builder's types are written by hand; this keeps them describing the migrated tables.
describe.runIf(backend.available)(`store/schema.ts and the ${backend.name} tables`, () => {
  let environment: TestEnvironment;
  let store: Store;

  beforeAll(async () => {
    environment = await createTestEnvironment();
    store = await environment.openStore();
  });
  afterAll(async () => {
    await store.close();
    await environment.cleanup();
  });

  it('name the same tables and columns, with the same nullability', async () => {
    const actual = backend.name === 'sqlite' ? await sqliteShape(store) : await postgresShape(store);
    for (const table of undeclared) delete actual.columns[table];
    const declared = declaredShape();
    if (backend.name === 'sqlite') {
      // SQLite keeps larger files on disk, so it has no chunks, and its held files always have a content.
      delete declared['file_chunks'];
      declared['file_blobs'] = declared['file_blobs']!.map((column) => (column === 'content' ? 'content not null' : column));
    }
    expect(actual.columns).toEqual(declared);
    // Reading the types loads Kysely's declarations: seconds of CPU on a busy machine.
  }, 120_000);
});

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
