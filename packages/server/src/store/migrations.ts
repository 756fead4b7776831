import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
  readonly checksum: string;
}

export interface AppliedMigration {
  version: number;
  name: string;
  checksum: string;
}

/** Migrations ship beside the code: `packages/server/migrations/<dialect>/NNNN_name.sql`. */
const migrationsRoot = fileURLToPath(new URL('../../migrations/', import.meta.url));
const fileName = /^(\d{4})_([a-z0-9_]+)\.sql$/;

export const ledgerTable = 'svc_migrations';

export async function loadMigrations(dialect: 'sqlite' | 'postgres'): Promise<Migration[]> {
  const directory = `${migrationsRoot}${dialect}/`;
  const names = (await readdir(directory)).filter((name) => name.endsWith('.sql')).sort();
  const migrations: Migration[] = [];
  for (const [index, name] of names.entries()) {
    const match = fileName.exec(name);
    if (!match) throw new Error(`migration file ${dialect}/${name} is not named NNNN_name.sql`);
    const version = Number(match[1]);
    if (version !== index + 1) throw new Error(`migration ${dialect}/${name} breaks the numbering (expected ${String(index + 1).padStart(4, '0')})`);
    const sql = await readFile(`${directory}${name}`, 'utf8');
    migrations.push({ version, name, sql, checksum: createHash('sha256').update(sql).digest('hex') });
  }
  return migrations;
}

/**
 * The migrations still to apply, after checking that what the database has applied is
 * what this code ships: a shipped migration must never be edited, and a database
 * migrated by a newer svc must not be run by an older one.
 */
export function pendingMigrations(all: readonly Migration[], applied: readonly AppliedMigration[]): Migration[] {
  const known = new Map(all.map((migration) => [migration.version, migration]));
  for (const row of applied) {
    const migration = known.get(row.version);
    if (!migration) {
      throw new Error(`the database has migration ${row.version} (${row.name}), which this svc does not know: it was migrated by a newer version`);
    }
    if (migration.checksum !== row.checksum) {
      throw new Error(`migration ${migration.name} differs from the one applied to this database; shipped migrations must not be edited`);
    }
  }
  const done = new Set(applied.map((row) => row.version));
  return all.filter((migration) => !done.has(migration.version));
}
