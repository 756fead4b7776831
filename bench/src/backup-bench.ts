import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createBackend, createForm, runSvc, startSvc, type Backend, type BackendName } from '@svc/testkit';
import { newId } from '@svc/server/testing';
import type { LoadSettings } from './endpoint-bench.js';
import type { LoadRunResult } from './load-runner.js';
import { runLoadProcess } from './processes.js';

export interface BackupFigures {
  readonly backend: BackendName;
  readonly submissions: number;
  readonly fileBytes: number;
  readonly files: number;
  /** `svc backup` of the store while the form endpoint is under load: its wall time and the archive. */
  readonly backupSeconds: number;
  readonly archiveBytes: number;
  /** The form endpoint alone, and while the backup ran (the backup outlasted the load, or not). */
  readonly alone: LoadRunResult;
  readonly duringBackup: LoadRunResult;
  readonly overlapped: boolean;
  /** `svc restore` of the archive into a new, empty store of the same backend. */
  readonly restoreSeconds: number;
  /** The store filled, the time it took (not a figure of svc's). */
  readonly fillSeconds: number;
}

const message = 'Hello, we would like a quote for a new website with a shop, a blog and a contact form. Our budget is flexible; please call us back this week. '.repeat(2);

/**
 * A backup of a large store (docs/server.md, "Backups and moving"): `submissions` submissions
 * with their events, written straight into the store, and `fileMiB` MiB of stored files in
 * 4 MiB contents; then `svc backup` (the real binary) while the form endpoint takes JSON
 * posts, and `svc restore` of the archive into a new store of the same backend.
 */
export async function benchBackup(settings: LoadSettings, backendName: BackendName, submissions: number, fileMiB: number): Promise<BackupFigures> {
  const backend = await createBackend(backendName, 'svcbenchbackup');
  const work = await mkdtemp(join(tmpdir(), 'svc-bench-backup-'));
  let target: Backend | null = null;
  try {
    const fillStarted = performance.now();
    const { endpointId, files } = await fill(backend, submissions, fileMiB);
    const fillSeconds = (performance.now() - fillStarted) / 1000;
    const key = randomBytes(32).toString('base64');
    const env = { SVC_ENCRYPTION_KEY: key };
    const server = await startSvc({ args: [...backend.serverArgs, '--rate-limit', '1000000/1h'], env, nodeArgs: settings.nodeArgs });
    try {
      const url = `${server.url}/api/f/${endpointId}`;
      const load = (tag: string, seconds: number): Promise<LoadRunResult> => runLoadProcess({ url, shape: 'json', connections: settings.connections, durationSeconds: seconds, tag: `${tag}${Date.now().toString(36)}` });
      await load('w', settings.warmupSeconds);
      const alone = await load('a', settings.durationSeconds);
      const archive = join(work, 'store.tar');
      const source = backend.databaseUrl ? ['--database-url', backend.databaseUrl] : ['--data-dir', backend.dataDir];
      const started = performance.now();
      let finished: number | null = null;
      const backup = runSvc(['backup', ...source, '--out', archive, '--json'], { env, timeoutMs: 1_800_000 }).then((result) => {
        finished = performance.now();
        if (result.code !== 0) throw new Error(`svc backup failed: ${result.stdout}${result.stderr}`);
      });
      const duringBackup = await load('b', settings.durationSeconds);
      const overlapped = finished === null;
      await backup;
      const backupSeconds = (finished! - started) / 1000;
      const archiveBytes = (await stat(archive)).size;

      target = await createBackend(backendName, 'svcbenchrestore');
      const into = target.databaseUrl ? ['--database-url', target.databaseUrl] : ['--data-dir', target.dataDir];
      const restoreStarted = performance.now();
      const restored = await runSvc(['restore', archive, ...into, '--json'], { env, timeoutMs: 1_800_000 });
      if (restored.code !== 0) throw new Error(`svc restore failed: ${restored.stdout}${restored.stderr}`);
      const restoreSeconds = (performance.now() - restoreStarted) / 1000;
      return { backend: backendName, submissions, fileBytes: fileMiB * 1024 * 1024, files, backupSeconds, archiveBytes, alone, duringBackup, overlapped, restoreSeconds, fillSeconds };
    } finally {
      await server.stop();
    }
  } finally {
    await target?.cleanup();
    await backend.cleanup();
    await rm(work, { recursive: true, force: true });
  }
}

/** Writes the submissions (500 a transaction) and the files straight into the store. */
async function fill(backend: Backend, submissions: number, fileMiB: number): Promise<{ endpointId: string; files: number }> {
  const store = await backend.openStore();
  try {
    const form = await createForm(store, { workspace: 'bench', project: 'site', slug: 'contact' });
    const now = Date.now();
    for (let done = 0; done < submissions; done += 500) {
      const count = Math.min(500, submissions - done);
      const rows = Array.from({ length: count }, (_, index) => {
        const at = now - (submissions - done - index) * 1_000;
        const id = newId('sub', at);
        const fields = JSON.stringify({ name: `Client ${done + index}`, email: `client${done + index}@example.com`, message });
        return {
          submission: { id, form_id: form.formId, state: 'inbox' as const, fields, files: '[]', client_ip: '203.0.113.0', user_agent: 'Mozilla/5.0 (bench)', idempotency_key: null, created_at: at },
          event: {
            id: newId('evt', at),
            project_id: form.projectId,
            type: 'form.submission.created',
            payload: JSON.stringify({ type: 'form.submission.created', data: { submission: { id, fields: JSON.parse(fields) as unknown } } }),
            created_at: at,
            dispatched_at: at,
          },
        };
      });
      await store.transaction(async (trx) => {
        await trx.insertInto('submissions').values(rows.map((row) => row.submission)).execute();
        await trx.insertInto('events').values(rows.map((row) => row.event)).execute();
      });
    }
    const contentMiB = 4;
    const files = Math.ceil(fileMiB / contentMiB);
    for (let index = 0; index < files; index++) {
      const staged = await store.files.stage(Readable.from(chunks(contentMiB)));
      await staged.commit();
    }
    return { endpointId: form.endpointId, files };
  } finally {
    await store.close();
  }
}

function* chunks(mib: number): Generator<Buffer> {
  for (let index = 0; index < mib; index++) yield randomBytes(1024 * 1024);
}
