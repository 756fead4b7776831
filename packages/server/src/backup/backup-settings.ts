/** `svc serve --backup-dir`, `--backup-every`, `--backup-keep` (docs/server.md, "Scheduled backups"). */
export interface BackupSettings {
  /** Where scheduled backups are written; null: none are taken. */
  readonly directory: string | null;
  readonly everyMs: number;
  /** How many scheduled backups are kept; older ones are removed. */
  readonly keep: number;
}

export const defaultBackupSettings: BackupSettings = { directory: null, everyMs: 24 * 3_600_000, keep: 7 };

/** A scheduled backup's file name: `svc-backup-20260107T031500Z.tar` (UTC), so names sort by time. */
export function scheduledBackupName(at: number): string {
  return `svc-backup-${new Date(at).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z')}.tar`;
}

export const scheduledBackupPattern = /^svc-backup-(\d{8}T\d{6}Z)\.tar$/;

/** When a scheduled backup of that name was taken, or null for another name. */
export function scheduledBackupTime(name: string): number | null {
  const stamp = scheduledBackupPattern.exec(name)?.[1];
  if (!stamp) return null;
  return Date.parse(`${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}Z`);
}
