// svc serve --backup-dir (docs/server.md, "Scheduled backups"): archives written atomically on
// a period, the oldest beyond --backup-keep removed, the last one's time and any failure in
// /healthz and /metrics; on PostgreSQL one instance at a time.
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createForm, createTestEnvironment, eventually, postJson, request, selectBackend, startSvc, type SvcProcess, type TestEnvironment } from '@svc/testkit';
import { verifyArchive } from '../../src/backup/archive-reader.js';
import { backupLockKey } from '../../src/backup/backup-schedule.js';
import type { Store } from '../../src/store/store.js';

const backend = await selectBackend();

interface Health {
  ok: boolean;
  backup?: { lastAt: string | null; failing: boolean; lastFailureAt: string | null };
}

const metric = (text: string, name: string): number | null => {
  const line = text.split('\n').find((row) => row.startsWith(`${name} `) || row.startsWith(`${name}{`));
  return line === undefined ? null : Number(line.slice(line.lastIndexOf(' ') + 1));
};

describe.runIf(backend.available)(`scheduled backups on ${backend.name}`, () => {
  let environment: TestEnvironment;
  let store: Store;
  let server: SvcProcess;
  let directory: string;

  beforeAll(async () => {
    environment = await createTestEnvironment();
    store = await environment.openStore();
    const form = await createForm(store, { rateLimit: { max: 1_000, windowSeconds: 60 } });
    directory = join(environment.dataDir, 'backups');
    server = await startSvc({ args: [...environment.serverArgs, '--backup-dir', directory, '--backup-every', '2s', '--backup-keep', '2'] });
    expect((await postJson(`${server.url}/api/f/${form.endpointId}`, { message: 'kept' })).status).toBe(200);
  });
  afterAll(async () => {
    await server?.stop();
    await store?.close();
    await environment?.cleanup();
  });

  const health = async (): Promise<Health> => (await request(`${server.url}/healthz`)).body as Health;
  const metrics = async (): Promise<string> => (await request(`${server.url}/metrics`)).text;

  it('writes an archive every period, keeps the newest --backup-keep, and reports the last in /healthz and /metrics', { timeout: 60_000 }, async () => {
    await eventually(metrics, (text) => (metric(text, 'svc_backups_total{result="succeeded"}') ?? 0) >= 3, 'three scheduled backups', 30_000);
    const names = (await readdir(directory)).sort();
    // Only whole archives, under their final names: the temporary ones were renamed or removed.
    expect(names.filter((name) => !name.startsWith('.'))).toEqual(names);
    expect(names).toHaveLength(2);
    for (const name of names) expect(name).toMatch(/^svc-backup-\d{8}T\d{6}Z\.tar$/);
    const verified = await verifyArchive(join(directory, names[1]!));
    expect(verified.manifest.tables['submissions']).toBe(1);
    const report = await health();
    expect(report.ok).toBe(true);
    expect(report.backup).toMatchObject({ failing: false, lastFailureAt: null });
    expect(Date.now() - Date.parse(report.backup!.lastAt!)).toBeLessThan(20_000);
    const text = await metrics();
    expect(metric(text, 'svc_backup_last_success_timestamp_seconds')).toBeCloseTo(Date.parse(report.backup!.lastAt!) / 1000, 0);
    expect(metric(text, 'svc_backup_failing')).toBe(0);
    expect(metric(text, 'svc_backup_last_size_bytes')).toBeGreaterThan(1_000);
  });

  it('reports a failure without failing /healthz, and recovers when the directory is back', { timeout: 60_000 }, async () => {
    await rm(directory, { recursive: true, force: true });
    await writeFile(directory, 'not a directory');
    const failing = await eventually(health, (report) => report.backup?.failing === true, 'a failed backup reported', 20_000);
    expect(failing.ok).toBe(true);
    expect(metric(await metrics(), 'svc_backup_failing')).toBe(1);
    expect(metric(await metrics(), 'svc_backups_total{result="failed"}')).toBeGreaterThanOrEqual(1);
    expect(server.stderr()).toContain('the scheduled backup failed');
    await rm(directory, { force: true });
    await mkdir(directory);
    await eventually(health, (report) => report.backup?.failing === false, 'a backup after the failure', 20_000);
    expect(metric(await metrics(), 'svc_backup_failing')).toBe(0);
  });

  it('lets one holder of the backup lock at a time take a backup, on every instance', async () => {
    const second = await environment.openStore();
    try {
      let inner: unknown = 'not run';
      const outer = await store.exclusive(backupLockKey, async () => {
        inner = await second.exclusive(backupLockKey, () => Promise.resolve('ran'));
        return 'held';
      });
      expect(outer).toEqual({ value: 'held' });
      // SQLite serves one process, whose lock is in the process: a second store there is that process too.
      if (backend.name === 'postgres') expect(inner).toBeNull();
      expect(await second.exclusive(backupLockKey, () => Promise.resolve('free again'))).toEqual({ value: 'free again' });
    } finally {
      await second.close();
    }
  });
});
