import { handlersIn, lazyCommand } from '../../command.js';

// `svc backup` and `svc restore` work on a store directly, as `svc serve` does: their
// handlers (./run.ts) load the server's backup module (@svc/server/backup) when they run, so
// no other command's start loads it (docs/architecture.md).
const run = handlersIn(() => import('./run.js'));

export const backupCommand = lazyCommand('backup', run('runBackup'), {
  summary: 'write a backup of the store to a tar file, while the server runs',
  description: `Write one tar archive of a consistent snapshot of the store (SQLite: one read transaction; PostgreSQL: one REPEATABLE READ transaction), taken while the server keeps running: manifest.json (format, migration, createdAt, tables, checksums, keyFingerprint), tables/{table}.ndjson and files/{sha256}. The encryption key is never in it, only its fingerprint: keep the key (SVC_ENCRYPTION_KEY or <data-dir>/encryption.key) apart from the archive. The archive is written under a temporary name and renamed into place, replacing FILE. Progress goes to stderr on a terminal.`,
  flags: {
    out: { flag: '--out <file>', description: 'the archive to write' },
    dataDir: { flag: '--data-dir <dir>', description: 'the SQLite store\'s data dir (and where its encryption.key is)', env: 'SVC_DATA_DIR', defaultValue: './.svc' },
    databaseUrl: { flag: '--database-url <url>', description: 'back up this PostgreSQL store instead', env: 'SVC_DATABASE_URL' },
  },
  examples: ['svc backup --out backup.tar', 'svc backup --data-dir /var/lib/svc --out /backups/svc-$(date +%F).tar', 'svc backup --database-url postgres://svc@db/svc --out svc.tar --json'],
});

export const restoreCommand = lazyCommand('restore', run('runRestore'), {
  summary: 'restore a backup into an empty store, SQLite or PostgreSQL',
  description: `Restore an archive of svc backup into an empty store: a new data dir (--data-dir) or a new PostgreSQL database (--database-url), from either backend to either. Every member is checked against the manifest's checksums before anything is written; a truncated or altered archive is refused (archive_invalid). An archive of an older migration level is restored at its level, then migrated; one of a newer svc is refused (archive_too_new). The secrets in it are sealed with the old server's key: give the same key (SVC_ENCRYPTION_KEY, or its encryption.key in the data dir), or pass --different-key to restore without them; the answer then lists what must be set again.`,
  arguments: { file: { description: 'the archive made by svc backup' } },
  flags: {
    dataDir: { flag: '--data-dir <dir>', description: 'restore into this data dir (SQLite); it must hold no store yet' },
    databaseUrl: { flag: '--database-url <url>', description: 'restore into this PostgreSQL database; it must be empty' },
    differentKey: { flag: '--different-key', description: 'restore although the target\'s key is not the archive\'s: sealed secrets are not kept and must be set again' },
  },
  examples: [
    'svc restore backup.tar --data-dir /var/lib/svc',
    'SVC_ENCRYPTION_KEY="$(cat .svc/encryption.key)" svc restore backup.tar --database-url postgres://svc@db/svc',
    'svc restore backup.tar --data-dir ./restored --different-key --json',
  ],
});
