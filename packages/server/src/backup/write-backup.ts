import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { once } from 'node:events';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { ServiceError } from '@svc/protocol';
import { openSnapshot } from '../store/open-snapshot.js';
import { sqliteFileName } from '../store/sqlite/sqlite-store.js';
import { readEncryptionCanary } from '../store/queries/encryption-canary.js';
import { appliedMigrations, readTableRows } from '../store/queries/table-rows.js';
import type { StoreSnapshot } from '../store/snapshot.js';
import { archiveFormat, fileMember, manifestMember, tableMember, type Manifest } from './archive-format.js';
import { ArchiveWriter } from './archive-writer.js';
import { archiveKeyFingerprint, findEncryptionKey } from './backup-key.js';
import { encodeRow } from './row-codec.js';
import { backupOrder, ledger } from './table-policy.js';

export interface BackupOptions {
  /** The data dir: the SQLite store's, or where `svc serve` keeps `encryption.key`. */
  readonly dataDir: string;
  /** `postgres://…`: the PostgreSQL store instead of the data dir's SQLite. */
  readonly databaseUrl?: string | undefined;
  /** The archive to write (replaced atomically when it exists). */
  readonly out: string;
  /** SVC_ENCRYPTION_KEY, when given: its fingerprint is checked against the store's. */
  readonly encryptionKey?: Uint8Array | undefined;
  readonly onProgress?: (progress: BackupProgress) => void;
  /** Stops the backup between two batches of rows or two files (a server shutting down); nothing is left. */
  readonly signal?: AbortSignal | undefined;
  readonly now?: () => number;
}

export type BackupProgress =
  | { readonly step: 'table'; readonly table: string; readonly rows: number }
  | { readonly step: 'files'; readonly files: number; readonly bytes: number };

export interface BackupResult {
  readonly out: string;
  readonly format: number;
  readonly migration: number;
  readonly createdAt: string;
  readonly tables: Readonly<Record<string, number>>;
  readonly files: number;
  readonly fileBytes: number;
  /** Stored files removed (erased, swept) after the snapshot began, before they were read: not in the archive. */
  readonly filesGone: number;
  /** The archive's size. */
  readonly bytes: number;
  readonly keyFingerprint: string | null;
  readonly durationMs: number;
}

/**
 * `svc backup` (docs/server.md, "Backups and moving"): a consistent snapshot of the store,
 * taken while its servers run, as one tar archive. Rows are streamed a batch at a time, each
 * table through a spool file beside the archive (a tar member's size comes before its
 * bytes), and files a chunk at a time: memory stays bounded whatever the store's size. The
 * archive is written under a temporary name, synced, then renamed into place.
 */
export async function writeBackup(options: BackupOptions): Promise<BackupResult> {
  const started = performance.now();
  const now = options.now ?? Date.now;
  const key = await findEncryptionKey(options.encryptionKey, options.databaseUrl ? undefined : options.dataDir);
  if (!options.databaseUrl && !(await stat(join(options.dataDir, sqliteFileName)).catch(() => null))) {
    throw new ServiceError('file_not_found', `no store in ${options.dataDir} (it has no ${sqliteFileName}): give the data dir svc serve uses (--data-dir), or --database-url`);
  }
  const snapshot = await openSnapshot({ dataDir: options.dataDir, databaseUrl: options.databaseUrl });
  const partial = join(dirname(options.out), `.${basename(options.out)}.${randomBytes(6).toString('hex')}.partial`);
  const spool = `${partial}.rows`;
  let archive: ArchiveWriter | null = null;
  try {
    const migrations = await appliedMigrations(snapshot.db).catch((error: unknown) => {
      throw new ServiceError('not_found', `no svc store there (${(error as Error).message})`);
    });
    const migration = migrations.at(-1)?.version ?? 0;
    const keyFingerprint = archiveKeyFingerprint(await readEncryptionCanary(snapshot.db), key);
    const createdAt = new Date(now()).toISOString();
    archive = new ArchiveWriter(partial, new Date(createdAt));
    const checksums: Record<string, string> = {};
    const tables: Record<string, number> = {};
    for (const table of backupOrder(await snapshot.catalog.tables())) {
      const { rows, sha256, size } = await spoolTable(snapshot, table.name, table.primaryKey, spool, (rows) => {
        options.signal?.throwIfAborted();
        options.onProgress?.({ step: 'table', table: table.name, rows });
      });
      await archive.add(tableMember(table.name), size, createReadStream(spool));
      checksums[tableMember(table.name)] = sha256;
      tables[table.name] = rows;
    }
    if (tables[ledger] === undefined) throw new Error('the migrations ledger is not among the tables');
    const files = await addFiles(snapshot, archive, checksums, options.onProgress, options.signal);
    const manifest: Manifest = { format: archiveFormat, migration, createdAt, tables, checksums, keyFingerprint };
    const text = Buffer.from(`${JSON.stringify(manifest, null, 1)}\n`);
    await archive.add(manifestMember, text.length, Readable.from([text]));
    await archive.finish();
    await syncFile(partial);
    await rename(partial, options.out);
    await syncFile(dirname(options.out));
    return {
      out: options.out,
      format: archiveFormat,
      migration,
      createdAt,
      tables,
      files: files.count,
      fileBytes: files.bytes,
      filesGone: files.gone,
      bytes: (await stat(options.out)).size,
      keyFingerprint,
      durationMs: Math.round(performance.now() - started),
    };
  } catch (error) {
    await archive?.abort();
    await rm(partial, { force: true });
    throw error;
  } finally {
    await rm(spool, { force: true });
    await snapshot.close();
  }
}

/** Writes every row of the table to the spool file as NDJSON; its rows, SHA-256 and size. */
async function spoolTable(
  snapshot: StoreSnapshot,
  table: string,
  primaryKey: readonly string[],
  path: string,
  progress: (rows: number) => void,
): Promise<{ rows: number; sha256: string; size: number }> {
  const out = createWriteStream(path, { mode: 0o600 });
  const hash = createHash('sha256');
  let rows = 0;
  let size = 0;
  let lastReport = performance.now();
  try {
    for await (const row of readTableRows(snapshot.db, table, primaryKey)) {
      const line = Buffer.from(`${encodeRow(row)}\n`);
      hash.update(line);
      size += line.length;
      rows += 1;
      if (!out.write(line)) await once(out, 'drain');
      if (rows % 1_000 === 0 || performance.now() - lastReport > 500) {
        progress(rows);
        lastReport = performance.now();
      }
    }
  } finally {
    out.end();
    await once(out, 'close');
  }
  progress(rows);
  return { rows, sha256: hash.digest('hex'), size };
}

/** Every stored content as `files/{sha256}`, each checked against its name on the way. */
async function addFiles(
  snapshot: StoreSnapshot,
  archive: ArchiveWriter,
  checksums: Record<string, string>,
  onProgress: BackupOptions['onProgress'],
  signal: AbortSignal | undefined,
): Promise<{ count: number; bytes: number; gone: number }> {
  let count = 0;
  let bytes = 0;
  let gone = 0;
  let lastReport = performance.now();
  for await (const file of snapshot.files()) {
    signal?.throwIfAborted();
    const content = await file.open();
    if (content === null) {
      gone += 1;
      continue;
    }
    const hash = createHash('sha256');
    const checked = async function* (): AsyncGenerator<Uint8Array> {
      for await (const chunk of content as AsyncIterable<Buffer>) {
        hash.update(chunk);
        yield chunk;
      }
    };
    await archive.add(fileMember(file.sha256), file.size, checked());
    const sha256 = hash.digest('hex');
    if (sha256 !== file.sha256) throw new Error(`the stored content ${file.sha256} has the SHA-256 ${sha256}: the store is damaged`);
    checksums[fileMember(file.sha256)] = sha256;
    count += 1;
    bytes += file.size;
    if (performance.now() - lastReport > 500) {
      onProgress?.({ step: 'files', files: count, bytes });
      lastReport = performance.now();
    }
  }
  onProgress?.({ step: 'files', files: count, bytes });
  return { count, bytes, gone };
}

async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
