import { mkdtemp, open, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { storageFailure } from './dependency-failure.js';
import { postgresDependencyFailure } from './postgres/failures.js';
import { sqliteDependencyFailure } from './sqlite/failures.js';

const dataDir = '/var/lib/svc';
const errno = (code: string, path?: string): Error => Object.assign(new Error(code), { code, ...(path ? { path } : {}) });

describe('telling a dependency failure from the request\'s own', () => {
  it('counts a full, failing or read-only disk as storage wherever it happened', () => {
    expect(storageFailure(errno('ENOSPC'), dataDir)).toEqual({ dependency: 'storage', reason: 'the disk is full (ENOSPC)' });
    expect(storageFailure(errno('EIO'), dataDir)?.dependency).toBe('storage');
    expect(storageFailure(errno('EROFS'), dataDir)?.dependency).toBe('storage');
  });

  it('counts a missing or unwritable path as storage only inside the data dir', () => {
    expect(storageFailure(errno('ENOENT', '/var/lib/svc/files/.staging/abc'), dataDir)?.reason).toContain('the data directory is gone');
    expect(storageFailure(errno('ENOENT', '/etc/hosts'), dataDir)).toBeNull();
    expect(storageFailure(errno('ENOENT', '/var/lib/svc-other/x'), dataDir)).toBeNull();
    expect(storageFailure(errno('ENOENT'), dataDir)).toBeNull();
  });

  it('follows the causes a stream or driver wrapped around the file system\'s error', () => {
    const wrapped = new Error('upload failed', { cause: new Error('write failed', { cause: errno('ENOSPC') }) });
    expect(storageFailure(wrapped, dataDir)?.reason).toBe('the disk is full (ENOSPC)');
  });

  it('reads SQLite result codes: a full or failing disk is storage, a lock past the timeout is the database, a constraint is neither', () => {
    expect(sqliteDependencyFailure(errno('SQLITE_FULL'), dataDir)?.dependency).toBe('storage');
    expect(sqliteDependencyFailure(errno('SQLITE_IOERR_WRITE'), dataDir)?.reason).toContain('disk I/O error');
    expect(sqliteDependencyFailure(errno('SQLITE_READONLY_DBMOVED'), dataDir)?.dependency).toBe('storage');
    expect(sqliteDependencyFailure(errno('SQLITE_BUSY'), dataDir)?.dependency).toBe('database');
    expect(sqliteDependencyFailure(errno('SQLITE_CONSTRAINT_UNIQUE'), dataDir)).toBeNull();
    expect(sqliteDependencyFailure(errno('SVC_STORE_GONE'), dataDir)?.dependency).toBe('storage');
  });

  it('reads PostgreSQL SQLSTATEs, fatal connection errors and dropped sockets as the database; constraint and syntax errors are neither', () => {
    const pgError = (code: string, severity = 'ERROR'): Error => Object.assign(new Error(`pg ${code}`), { code, severity });
    expect(postgresDependencyFailure(pgError('57P01', 'FATAL'), dataDir, 5432)?.reason).toContain('shutting down or restarting');
    expect(postgresDependencyFailure(pgError('57014'), dataDir, 5432)?.reason).toContain('--database-timeout');
    expect(postgresDependencyFailure(pgError('25006'), dataDir, 5432)?.reason).toContain('read-only');
    expect(postgresDependencyFailure(pgError('53100'), dataDir, 5432)?.reason).toContain('disk is full');
    expect(postgresDependencyFailure(pgError('55000', 'FATAL'), dataDir, 5432)?.reason).toContain('refused the connection');
    expect(postgresDependencyFailure(new Error('Connection terminated unexpectedly'), dataDir, 5432)?.dependency).toBe('database');
    expect(postgresDependencyFailure(Object.assign(new Error('refused'), { code: 'ECONNREFUSED', port: 5432 }), dataDir, 5432)?.dependency).toBe('database');
    // A webhook receiver or SMTP server refusing is not the database.
    expect(postgresDependencyFailure(Object.assign(new Error('refused'), { code: 'ECONNREFUSED', port: 8080 }), dataDir, 5432)).toBeNull();
    expect(postgresDependencyFailure(pgError('23505'), dataDir, 5432)).toBeNull();
    expect(postgresDependencyFailure(pgError('42601'), dataDir, 5432)).toBeNull();
    expect(postgresDependencyFailure(errno('ENOSPC'), dataDir, 5432)?.dependency).toBe('storage');
  });
});

describe('the storage check', () => {
  it('passes on a writable directory and names a replaced database file, a missing directory and a disk below the minimum', async () => {
    const { checkStorage } = await import('./storage-check.js');
    const { fileIdentity } = await import('./sqlite/file-identity.js');
    const dir = await mkdtemp(join(tmpdir(), 'svc-storage-'));
    try {
      const file = join(dir, 'db');
      await (await open(file, 'w')).close();
      const options = { dataDir: dir, directory: dir, identity: { path: file, expected: fileIdentity(file) }, minFreeBytes: 1 };
      expect(await checkStorage(options, true)).toBeNull();
      expect(await checkStorage({ ...options, minFreeBytes: Number.MAX_SAFE_INTEGER }, false)).toMatch(/^low on disk space/);
      // Another file put in its place (made before the old one goes, so it cannot reuse its inode).
      await (await open(`${file}.new`, 'w')).close();
      await rename(`${file}.new`, file);
      expect(await checkStorage(options, false)).toMatch(/was replaced/);
      await rm(dir, { recursive: true });
      expect(await checkStorage(options, false)).toMatch(/is gone/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
