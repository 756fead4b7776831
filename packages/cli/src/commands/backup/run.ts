import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { formatSize, ServiceError } from '@svc/protocol';
import type { BackupProgress, BackupResult, RestoreProgress, RestoreResult } from '@svc/server/backup';
import type { ContextOf } from '../../command.js';
import type { Io } from '../../io.js';
import { requireArgument } from '../../require-argument.js';
import type { backupCommand, restoreCommand } from './commands.js';

/** `svc backup` (docs/server.md, "Backups and moving"). */
export async function runBackup({ options, io, out }: ContextOf<typeof backupCommand>): Promise<number> {
  const file = resolve(io.cwd, requireArgument(options.out, 'the archive to write: --out FILE'));
  const backup = await import('@svc/server/backup');
  const progress = progressLine(io, out.json);
  const result = await storeFailures(() =>
    backup.writeBackup({
      dataDir: resolve(io.cwd, options.dataDir),
      databaseUrl: emptyToUndefined(options.databaseUrl),
      out: file,
      encryptionKey: keyFrom(io, backup.parseEncryptionKey),
      onProgress: (step) => progress.show(backupProgressText(step)),
    }),
  );
  progress.done();
  out.result({ ok: true, backup: result }, () => backupText(result));
  return 0;
}

/** `svc restore` (docs/server.md, "Backups and moving"). */
export async function runRestore({ args, options, io, out }: ContextOf<typeof restoreCommand>): Promise<number> {
  const archive = resolve(io.cwd, requireArgument(args.file, 'the archive to restore'));
  const databaseUrl = emptyToUndefined(options.databaseUrl);
  if ((options.dataDir === undefined) === (databaseUrl === undefined)) {
    throw new ServiceError('usage', 'say where to restore: --data-dir DIR (SQLite) or --database-url URL (PostgreSQL), one of them');
  }
  if (!(await stat(archive).catch(() => null))?.isFile()) throw new ServiceError('file_not_found', `${args.file} does not exist`);
  const backup = await import('@svc/server/backup');
  const progress = progressLine(io, out.json);
  const result = await storeFailures(() =>
    backup.restoreBackup({
      archive,
      dataDir: options.dataDir === undefined ? undefined : resolve(io.cwd, options.dataDir),
      databaseUrl,
      differentKey: options.differentKey === true,
      encryptionKey: keyFrom(io, backup.parseEncryptionKey),
      onProgress: (step) => progress.show(restoreProgressText(step)),
    }),
  );
  progress.done();
  out.result({ ok: true, restore: result }, () => restoreText(result, options.dataDir ?? 'the database'));
  return 0;
}

function emptyToUndefined(text: string | undefined): string | undefined {
  return text === undefined || text.trim() === '' ? undefined : text.trim();
}

/** SVC_ENCRYPTION_KEY, as `svc serve` reads it. */
function keyFrom(io: Io, parse: (text: string) => Uint8Array): Uint8Array | undefined {
  const text = io.env['SVC_ENCRYPTION_KEY'];
  if (!text) return undefined;
  try {
    return parse(text);
  } catch (error) {
    throw new ServiceError('usage', `SVC_ENCRYPTION_KEY: ${(error as Error).message}`);
  }
}

/** Failures of the file system and of the database as the codes a script acts on. */
async function storeFailures<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const message = (error as Error).message;
    if (code === 'ENOENT') throw new ServiceError('file_not_found', message, undefined, { cause: error });
    if (code === 'EACCES' || code === 'EPERM' || code === 'EISDIR' || code === 'ENOTDIR') throw new ServiceError('file_unreadable', message, undefined, { cause: error });
    if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ETIMEDOUT' || code === '3D000' || code === '28P01') {
      throw new ServiceError('unavailable', `the database cannot be reached: ${message}`, undefined, { cause: error });
    }
    throw error;
  }
}

/** One line of progress on a terminal's stderr, rewritten in place; nothing otherwise. */
function progressLine(io: Io, json: boolean): { show(text: string): void; done(): void } {
  const shown = Boolean(io.stderr.isTTY) && !json;
  let written = false;
  return {
    show: (text) => {
      if (!shown) return;
      io.stderr.write(`\r\u001b[2K${text}`);
      written = true;
    },
    done: () => {
      if (written) io.stderr.write('\r\u001b[2K');
    },
  };
}

function backupProgressText(step: BackupProgress): string {
  return step.step === 'table' ? `tables/${step.table}: ${step.rows} rows` : `files: ${step.files} (${formatSize(step.bytes)})`;
}

function restoreProgressText(step: RestoreProgress): string {
  switch (step.step) {
    case 'verify':
      return 'checking every member of the archive';
    case 'table':
      return `tables/${step.table}: ${step.rows} rows`;
    case 'files':
      return `files: ${step.files} (${formatSize(step.bytes)})`;
    case 'migrate':
      return `migrating from ${step.from} to ${step.to}`;
  }
}

function rowCount(tables: Readonly<Record<string, number>>): number {
  return Object.values(tables).reduce((sum, rows) => sum + rows, 0);
}

function backupText(result: BackupResult): string {
  const lines = [
    `Wrote ${result.out} (${formatSize(result.bytes)}) in ${(result.durationMs / 1000).toFixed(1)} s: ${Object.keys(result.tables).length} tables, ${rowCount(result.tables)} rows, ${result.files} files (${formatSize(result.fileBytes)}), at migration ${result.migration}.`,
    result.keyFingerprint === null ? 'No secrets are sealed in it.' : `Its secrets are sealed with key ${result.keyFingerprint}: keep that key (never in the archive) to restore them.`,
  ];
  if (result.filesGone > 0) lines.push(`${result.filesGone} stored files were removed (erased or swept) after the snapshot began and are not in it.`);
  return lines.join('\n');
}

function restoreText(result: RestoreResult, where: string): string {
  const migrated = result.migratedTo > result.migration ? `, then migrated from ${result.migration} to ${result.migratedTo}` : '';
  const lines = [`Restored ${result.archive} (made ${result.createdAt}) into ${where}: ${rowCount(result.tables)} rows, ${result.files} files (${formatSize(result.fileBytes)})${migrated}.`];
  if (result.differentKey) {
    lines.push('', 'Restored with a different key: the archive\'s secrets were not kept. Set these again:');
    for (const item of result.setAgain) lines.push(`  ${item.kind} ${item.id}: ${item.action}`);
    if (result.setAgain.length === 0) lines.push('  nothing (no webhook, repository or captcha secret was sealed in it)');
  }
  return lines.join('\n');
}
