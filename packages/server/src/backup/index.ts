// `@svc/server/backup`: what `svc backup` and `svc restore` load (docs/server.md, "Backups
// and moving"), without the rest of the server.
export { writeBackup, type BackupOptions, type BackupProgress, type BackupResult } from './write-backup.js';
export { restoreBackup, type RestoreOptions, type RestoreProgress, type RestoreResult } from './restore-backup.js';
export type { SetAgain } from './rekey.js';
export { leftOutTables } from './table-policy.js';
export { parseEncryptionKey } from '../secrets/encryption-key.js';
