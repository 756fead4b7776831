import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { Store } from '../store/store.js';
import type { BackupSettings } from './backup-settings.js';
import { scheduledBackupName, scheduledBackupPattern, scheduledBackupTime } from './backup-settings.js';
import type { BackupStatus } from '../observability/backup-status.js';
import { writeBackup } from './write-backup.js';

/** The advisory lock under which one instance at a time takes the scheduled backup. */
export const backupLockKey = 0x5f5c_0b4c;
/** A partial archive untouched this long was left by a stopped backup. */
const abandonedPartialMs = 3_600_000;

export interface BackupScheduleOptions {
  readonly store: Store;
  readonly settings: BackupSettings & { readonly directory: string };
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  readonly encryptionKey: Uint8Array;
  readonly status: BackupStatus;
  readonly logger: Logger;
  readonly now?: () => number;
}

export interface BackupSchedule {
  /** Takes a backup now (unless one runs here or, on PostgreSQL, on another instance). */
  runOnce(): Promise<void>;
  /** Stops the timer and a backup in progress (its partial file is removed). */
  stop(): Promise<void>;
}

/**
 * `svc serve --backup-dir` (docs/server.md, "Scheduled backups"): every `--backup-every`, a
 * backup written into the directory under a temporary name and renamed into place, then the
 * oldest beyond `--backup-keep` removed. On PostgreSQL the instances take turns under an
 * advisory lock, and one that finds a backup younger than the period in the directory (a
 * directory they share) lets its turn go. The first is due one period after the newest
 * backup there, or at once when there is none.
 */
export async function startBackupSchedule(options: BackupScheduleOptions): Promise<BackupSchedule> {
  const { settings, status, logger } = options;
  const now = options.now ?? Date.now;
  await mkdir(settings.directory, { recursive: true, mode: 0o700 });
  await removeAbandonedPartials(settings.directory, now());
  const controller = new AbortController();
  let running: Promise<void> | null = null;
  let timer: NodeJS.Timeout | null = null;

  const take = async (): Promise<void> => {
    const outcome = await options.store.exclusive(backupLockKey, async () => {
      const newest = await newestBackup(settings.directory);
      if (newest !== null && now() - newest < settings.everyMs * 0.9) return 'skipped';
      const startedAt = now();
      const out = join(settings.directory, scheduledBackupName(startedAt));
      const result = await writeBackup({ dataDir: options.dataDir, databaseUrl: options.databaseUrl, out, encryptionKey: options.encryptionKey, signal: controller.signal, now });
      status.succeed(now(), result.durationMs, result.bytes);
      logger.info({ file: out, bytes: result.bytes, durationMs: result.durationMs, files: result.files, migration: result.migration }, `wrote the scheduled backup ${out}`);
      await prune(settings.directory, settings.keep, logger);
      return 'taken';
    });
    if (outcome === null) logger.debug('another instance is taking the scheduled backup');
  };
  const runOnce = (): Promise<void> => {
    running ??= take()
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        status.fail(now());
        logger.error({ err: error, directory: settings.directory }, `the scheduled backup failed: ${(error as Error).message}`);
      })
      .finally(() => (running = null));
    return running;
  };
  const schedule = (delayMs: number): void => {
    if (controller.signal.aborted) return;
    timer = setTimeout(() => void runOnce().finally(() => schedule(settings.everyMs)), Math.max(0, Math.min(delayMs, 2_147_483_647)));
    timer.unref();
  };
  const newest = await newestBackup(settings.directory);
  schedule(newest === null ? 0 : newest + settings.everyMs - now());
  return {
    runOnce,
    stop: async () => {
      controller.abort();
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

/** When the newest scheduled backup in the directory was taken, by its name; null when there is none. */
async function newestBackup(directory: string): Promise<number | null> {
  const times = (await readdir(directory)).map(scheduledBackupTime).filter((time): time is number => time !== null);
  return times.length === 0 ? null : Math.max(...times);
}

/** Removes the oldest scheduled backups beyond `keep` (other files are never touched). */
async function prune(directory: string, keep: number, logger: Logger): Promise<void> {
  const names = (await readdir(directory)).filter((name) => scheduledBackupPattern.test(name)).sort();
  for (const name of names.slice(0, Math.max(0, names.length - keep))) {
    await rm(join(directory, name), { force: true });
    logger.info({ file: join(directory, name) }, `removed the old backup ${name} (--backup-keep ${keep})`);
  }
}

/** The temporary files of a scheduled backup that stopped (a crash) and was never renamed into place. */
async function removeAbandonedPartials(directory: string, now: number): Promise<void> {
  for (const name of await readdir(directory)) {
    if (!/^\.svc-backup-.*\.partial(\.rows)?$/.test(name)) continue;
    const info = await stat(join(directory, name)).catch(() => null);
    if (info && now - info.mtimeMs > abandonedPartialMs) await rm(join(directory, name), { force: true });
  }
}
