import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceError } from '@svc/protocol';
import { loadEncryptionKey } from '../secrets/encryption-key.js';
import { keyIdOf, SecretBox } from '../secrets/secret-box.js';
import type { TableInfo } from '../store/catalog.js';
import { loadMigrations } from '../store/migrations.js';
import { openStore } from '../store/open-store.js';
import { insertTableRows } from '../store/queries/table-rows.js';
import type { Db, Store } from '../store/store.js';
import { archiveFormat, invalidArchive, type Member } from './archive-format.js';
import { readVerifiedArchive, verifyArchive, type VerifiedArchive } from './archive-reader.js';
import { findEncryptionKey } from './backup-key.js';
import { ndjsonLines } from './ndjson-lines.js';
import { Rekeying, type SetAgain } from './rekey.js';
import { assertEmptyTarget } from './restore-target.js';
import { decodeRow, parseRow } from './row-codec.js';
import { ledger } from './table-policy.js';

export interface RestoreOptions {
  readonly archive: string;
  /** The SQLite target's data dir; with `databaseUrl`, none (a scratch dir holds the upload spool). */
  readonly dataDir?: string | undefined;
  readonly databaseUrl?: string | undefined;
  /** Restore although the archive's secrets are sealed with another key: they are set again (rekey.ts). */
  readonly differentKey: boolean;
  /** SVC_ENCRYPTION_KEY, when given. */
  readonly encryptionKey?: Uint8Array | undefined;
  readonly onProgress?: (progress: RestoreProgress) => void;
}

export type RestoreProgress =
  | { readonly step: 'verify' }
  | { readonly step: 'table'; readonly table: string; readonly rows: number }
  | { readonly step: 'files'; readonly files: number; readonly bytes: number }
  | { readonly step: 'migrate'; readonly from: number; readonly to: number };

export interface RestoreResult {
  readonly archive: string;
  readonly format: number;
  readonly createdAt: string;
  /** The archive's migration level, at which its rows were written. */
  readonly migration: number;
  /** The level the store was then migrated to. */
  readonly migratedTo: number;
  readonly tables: Readonly<Record<string, number>>;
  readonly files: number;
  readonly fileBytes: number;
  readonly keyFingerprint: string | null;
  readonly differentKey: boolean;
  /** With a different key: the secrets that were not kept, and what to do for each. */
  readonly setAgain: readonly SetAgain[];
  readonly durationMs: number;
}

/**
 * `svc restore` (docs/server.md, "Backups and moving"): into an empty store only; the whole
 * archive is read and checked against its manifest before anything is written; then the
 * target is migrated to the archive's level, its files stored, its rows written in one
 * transaction (in archive order: parents first), and the store migrated to this version's
 * latest level. Either backend from either.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const started = performance.now();
  const scratch = options.databaseUrl && !options.dataDir ? await mkdtemp(join(tmpdir(), 'svc-restore-')) : null;
  const dataDir = options.dataDir ?? scratch!;
  try {
    const target = { dataDir, databaseUrl: options.databaseUrl };
    await assertEmptyTarget(target);
    options.onProgress?.({ step: 'verify' });
    const archive = await verifyArchive(options.archive);
    const latest = await checkLevel(archive, options.databaseUrl ? 'postgres' : 'sqlite');
    const rekeying = await keyFor(archive, options, dataDir);

    const store = await openStore({ ...target, migrateUpTo: archive.manifest.migration, databaseTimeoutMs: 60_000 });
    let written: { tables: Record<string, number>; files: number; fileBytes: number };
    try {
      const tables = new Map((await store.catalog.tables()).map((table) => [table.name, table]));
      checkTables(archive, tables);
      written = await store.transaction((trx) => writeArchive(archive, store, trx, tables, rekeying, options.onProgress));
      await store.catalog.resetSequences();
    } finally {
      await store.close();
    }
    if (latest > archive.manifest.migration) options.onProgress?.({ step: 'migrate', from: archive.manifest.migration, to: latest });
    await (await openStore(target)).close();
    return {
      archive: options.archive,
      format: archive.manifest.format,
      createdAt: archive.manifest.createdAt,
      migration: archive.manifest.migration,
      migratedTo: latest,
      ...written,
      keyFingerprint: archive.manifest.keyFingerprint,
      differentKey: rekeying !== null,
      setAgain: rekeying?.setAgain ?? [],
      durationMs: Math.round(performance.now() - started),
    };
  } finally {
    if (scratch) await rm(scratch, { recursive: true, force: true });
  }
}

/** The latest migration this svc knows, once the archive's format and level are ones it can restore. */
async function checkLevel(archive: VerifiedArchive, dialect: 'sqlite' | 'postgres'): Promise<number> {
  const { manifest } = archive;
  if (manifest.format > archiveFormat) {
    throw new ServiceError('archive_too_new', `the archive has format ${manifest.format}, and this svc reads formats up to ${archiveFormat}: restore it with the svc that made it, or a later one; nothing was written`);
  }
  const migrations = await loadMigrations(dialect);
  const latest = migrations.at(-1)?.version ?? 0;
  if (manifest.migration > latest) {
    throw new ServiceError('archive_too_new', `the archive's store was at migration ${manifest.migration}, and this svc knows migrations up to ${latest}: restore it with the svc that made it, or a later one; nothing was written`);
  }
  const names = new Map(migrations.map((migration) => [migration.version, migration.name]));
  const versions = archive.ledger.map((row) => row.version);
  if (versions.length !== manifest.migration || versions.some((version, index) => version !== index + 1)) {
    throw invalidArchive(`its migrations ledger (${versions.join(', ') || 'empty'}) does not go from 1 to ${manifest.migration}`);
  }
  for (const row of archive.ledger) {
    if (names.get(row.version) !== row.name) throw invalidArchive(`its migration ${row.version} is ${row.name}, which is not this svc's ${names.get(row.version) ?? 'migration'}`);
  }
  return latest;
}

/**
 * The same key as the archive's, or with --different-key the target's key (on SQLite made in
 * the data dir as `svc serve` would) and what re-keys the rows; else key_mismatch.
 */
async function keyFor(archive: VerifiedArchive, options: RestoreOptions, dataDir: string): Promise<Rekeying | null> {
  const fingerprint = archive.manifest.keyFingerprint;
  const key = await findEncryptionKey(options.encryptionKey, options.databaseUrl ? undefined : dataDir);
  if (fingerprint === null || (key !== null && keyIdOf(key) === fingerprint)) return null;
  if (!options.differentKey) {
    const given = key === null ? 'no key was given' : `the key given has id ${keyIdOf(key)}`;
    const where = options.databaseUrl ? 'set SVC_ENCRYPTION_KEY to it' : `set SVC_ENCRYPTION_KEY to it, or copy its encryption.key into ${dataDir}`;
    throw new ServiceError('key_mismatch', `the archive's secrets are sealed with key ${fingerprint}, and ${given}: ${where}; or restore with --different-key and set those secrets again. Nothing was written`);
  }
  if (key !== null) return new Rekeying(fingerprint, new SecretBox(key));
  if (options.databaseUrl) {
    throw new ServiceError('key_mismatch', 'with --database-url, --different-key needs SVC_ENCRYPTION_KEY: the key the servers on that database will share. Nothing was written');
  }
  return new Rekeying(fingerprint, new SecretBox((await loadEncryptionKey({ encryptionKey: undefined, dataDir })).key));
}

/** Every archived table must be one of the target's, after every table it references that the archive holds. */
function checkTables(archive: VerifiedArchive, tables: ReadonlyMap<string, TableInfo>): void {
  const order = archive.members.flatMap((name) => (name.startsWith('tables/') ? [name.slice('tables/'.length, -'.ndjson'.length)] : []));
  const seen = new Set<string>();
  for (const name of order) {
    const table = tables.get(name);
    if (!table) throw invalidArchive(`it holds a table ${name}, which a store at migration ${archive.manifest.migration} does not have`);
    for (const parent of table.references) {
      if (order.includes(parent) && !seen.has(parent)) throw invalidArchive(`the table ${name} comes before ${parent}, which it references`);
    }
    seen.add(name);
  }
}

/** The second read: files stored, rows written in the transaction `trx`. */
async function writeArchive(
  archive: VerifiedArchive,
  store: Store,
  trx: Db,
  tables: ReadonlyMap<string, TableInfo>,
  rekeying: Rekeying | null,
  onProgress: RestoreOptions['onProgress'],
): Promise<{ tables: Record<string, number>; files: number; fileBytes: number }> {
  const counts: Record<string, number> = {};
  let files = 0;
  let fileBytes = 0;
  await readVerifiedArchive(archive, async (member: Member, content) => {
    if (member.kind === 'file') {
      const staged = await store.files.stage(content);
      if (staged.sha256 !== member.sha256) {
        await staged.discard();
        throw invalidArchive(`files/${member.sha256} changed since it was checked`);
      }
      await staged.commit();
      files += 1;
      fileBytes += staged.size;
      onProgress?.({ step: 'files', files, bytes: fileBytes });
    } else if (member.kind === 'table' && member.table !== ledger) {
      counts[member.table] = await writeTable(trx, tables.get(member.table)!, content, rekeying, (rows) => onProgress?.({ step: 'table', table: member.table, rows }));
    } else {
      for await (const _chunk of content) void _chunk;
    }
  });
  return { tables: counts, files, fileBytes };
}

/** One table's rows, a multi-row insert per batch; the rows written. */
async function writeTable(trx: Db, table: TableInfo, content: AsyncIterable<Uint8Array>, rekeying: Rekeying | null, progress: (rows: number) => void): Promise<number> {
  const columns = table.columns.map((column) => column.name);
  const perInsert = Math.max(1, Math.min(500, Math.floor(30_000 / columns.length)));
  let batch: unknown[][] = [];
  let rows = 0;
  for await (const line of ndjsonLines(content)) {
    let row: Record<string, unknown> | null;
    try {
      row = parseRow(line, table.name);
      if (rekeying) row = rekeying.apply(table.name, row);
      if (row === null) continue;
      batch.push(decodeRow(row, table.columns, table.name));
    } catch (error) {
      throw invalidArchive(`row ${rows + batch.length + 1} of table ${table.name}: ${(error as Error).message}`, error);
    }
    if (batch.length < perInsert) continue;
    await insert(trx, table.name, columns, batch, rows);
    rows += batch.length;
    batch = [];
    progress(rows);
  }
  await insert(trx, table.name, columns, batch, rows);
  rows += batch.length;
  progress(rows);
  return rows;
}

/** One batch of rows; a row the store refuses (a key it breaks) makes the archive one it cannot restore. */
async function insert(trx: Db, table: string, columns: readonly string[], batch: readonly unknown[][], before: number): Promise<void> {
  try {
    await insertTableRows(trx, table, columns, batch);
  } catch (error) {
    throw invalidArchive(`rows ${before + 1} to ${before + batch.length} of table ${table} cannot be written (${(error as Error).message})`, error);
  }
}
