import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createBackend, createForm, createWebhook, newEncryptionKey, postgresProblem, runSvc, startSvc, type Backend, type BackendName } from '@svc/testkit';
import type { Store } from '@svc/server';
import type { ScenarioResult } from '../harness/report.js';
import { ScenarioSkipped, withScenario, type ScenarioOptions } from '../harness/scenario.js';

export interface BackupRestoreOptions extends ScenarioOptions {
  /** Posts sent while the backup runs (and before and after it), `concurrency` at a time. */
  readonly posts: number;
  readonly concurrency: number;
  /** Every this-many-th post carries two files (one held in its row, one stored on its own). */
  readonly filesEvery: number;
}

interface Acknowledged {
  readonly id: string;
  readonly sentAt: number;
  readonly ackedAt: number;
  /** SHA-256 of each file it carried. */
  readonly files: string[];
}

const flags = ['--rate-limit', '1000000/1m', '--allow-private-targets', '--retry-schedule', '1s,1s,1s,1s,1s,1s,1s,1s,1s,1s', '--delivery-timeout', '2s', '--delivery-lease', '3s', '--delivery-poll-interval', '1s', '--max-held-file-size', '1KiB'];

/**
 * The round trip of issue 41, as an operator would do it (docs/server.md, "Backups and
 * moving"): posts (some with files) keep arriving while `svc backup` runs on the live server,
 * whose webhook receiver refuses everything, so deliveries are pending; `svc restore` writes
 * the archive onto the other backend and a server with the same key starts there. Every
 * post acknowledged before the backup began must be there with its files, none sent after
 * it ended, and every delivery pending in the archive must reach the receiver (now
 * answering) at least once. Then the same back onto the first backend. A truncated and an
 * altered archive are refused with nothing written.
 */
export function runBackupRestoreScenario(options: BackupRestoreOptions): Promise<ScenarioResult> {
  const other: BackendName = options.backend === 'sqlite' ? 'postgres' : 'sqlite';
  return withScenario({ name: 'backup-restore', backend: options.backend, log: options.log }, async ({ backend, store, problems, log, startServer, startReceiver, defer }) => {
    if (other === 'postgres') {
      const problem = await postgresProblem();
      if (problem !== null) throw new ScenarioSkipped('no PostgreSQL', `backup-restore on sqlite skipped: ${problem}`);
    }
    const key = newEncryptionKey();
    const env = { SVC_ENCRYPTION_KEY: key };
    const work = await mkdtemp(join(tmpdir(), 'svc-backup-scenario-'));
    defer(() => rm(work, { recursive: true, force: true }));
    const fresh = async (name: BackendName): Promise<Backend> => {
      const made = await createBackend(name, 'svcbackuprun');
      defer(() => made.cleanup());
      return made;
    };
    log(`backup-restore from ${options.backend} to ${other} and back: ${options.posts} posts, ${options.concurrency} at a time, while svc backup runs`);
    const receiver = await startReceiver({ respond: () => ({ status: 503, body: 'not yet' }) });
    const form = await createForm(store, { rateLimit: null });
    await createWebhook(store, form, { url: `${receiver.url}/hook`, encryptionKey: key, dataDir: backend.dataDir, allowPrivateTargets: true });
    const server = await startServer({ args: flags, env });
    const url = `${server.url}/api/f/${form.endpointId}`;

    // Posts, some with files, until told to stop after `options.posts`.
    const acknowledged: Acknowledged[] = [];
    let sent = 0;
    const post = async (): Promise<void> => {
      const n = sent++;
      const sentAt = Date.now();
      let body: BodyInit;
      const files: string[] = [];
      if (n % options.filesEvery === 0) {
        const form = new FormData();
        form.set('n', String(n));
        for (const [field, size] of [['small', 300], ['large', 20_000]] as const) {
          const bytes = randomBytes(size);
          files.push(createHash('sha256').update(bytes).digest('hex'));
          form.set(field, new Blob([bytes]), `${field}.bin`);
        }
        body = form;
      } else {
        body = JSON.stringify({ n, message: 'backup-restore' });
      }
      const response = await fetch(url, { method: 'POST', body, headers: typeof body === 'string' ? { 'content-type': 'application/json' } : {} });
      const answer = (await response.json()) as { id?: string };
      if (response.status === 200 && answer.id) acknowledged.push({ id: answer.id, sentAt, ackedAt: Date.now(), files });
      else problems.add(`a post answered ${response.status}`, 'post refused');
    };
    const posting = Promise.all(Array.from({ length: options.concurrency }, async () => {
      while (sent < options.posts) await post();
    }));
    while (acknowledged.length < options.posts / 3 && sent < options.posts) await new Promise((resolve) => setTimeout(resolve, 10));

    const archive = join(work, 'live.tar');
    const backupStartedAt = Date.now();
    const made = await runSvc(['backup', ...sourceFlags(backend), '--out', archive, '--json'], { env, timeoutMs: 600_000 });
    const backupEndedAt = Date.now();
    await posting;
    await server.stop();
    if (made.code !== 0) throw new Error(`svc backup failed: ${made.stdout}${made.stderr}`);
    const backupMs = backupEndedAt - backupStartedAt;
    const before = acknowledged.filter((post) => post.ackedAt < backupStartedAt);
    const after = acknowledged.filter((post) => post.sentAt > backupEndedAt);
    log(`  svc backup took ${backupMs} ms while posts arrived: ${before.length} acknowledged before it, ${after.length} sent after it, ${acknowledged.length} in all`);

    // Damaged archives first: refused, nothing written.
    const whole = await readFile(archive);
    for (const [label, damage] of [
      ['truncated', async (path: string) => truncate(path, Math.floor(whole.length * 0.7))],
      [
        'altered',
        async (path: string) => {
          // One byte of a submission's fields, inside a member (not in a tar block's padding).
          const copy = Buffer.from(whole);
          const at = copy.indexOf(Buffer.from('backup-restore'));
          copy.writeUInt8(copy.readUInt8(at) ^ 0x01, at);
          await writeFile(path, copy);
        },
      ],
    ] as const) {
      const path = join(work, `${label}.tar`);
      await writeFile(path, whole);
      await damage(path);
      const target = await fresh(other);
      const refused = await runSvc(['restore', path, ...targetFlags(target), '--json'], { env, timeoutMs: 600_000 });
      if (refused.code !== 1 || !refused.stdout.includes('"archive_invalid"')) problems.add(`a ${label} archive was not refused as archive_invalid: exit ${refused.code} ${refused.stdout.slice(0, 300)}`);
      if (await anyTable(target)) problems.add(`a ${label} archive wrote tables before it was refused`);
    }

    // Onto the other backend, then back.
    const restoreStarted = Date.now();
    const middle = await fresh(other);
    const restored = await runSvc(['restore', archive, ...targetFlags(middle), '--json'], { env, timeoutMs: 600_000 });
    const restoreMs = Date.now() - restoreStarted;
    if (restored.code !== 0) throw new Error(`svc restore failed: ${restored.stdout}${restored.stderr}`);
    const pending = await checkStore(middle, before, after, problems, `on ${other}`);
    receiver.respond(() => ({ status: 200, body: 'thanks' }));
    const middleServer = await startSvc({ args: [...middle.serverArgs, ...flags], env });
    defer(() => middleServer.stop());
    const delivered = await receiver.waitFor(pending.length, (request) => pending.includes(request.deliveryId), 120_000).then(
      () => pending.length,
      () => pending.filter((id) => receiver.requests.some((request) => request.deliveryId === id)).length,
    );
    if (delivered < pending.length) problems.add(`${pending.length - delivered} of ${pending.length} deliveries pending in the archive were never delivered after the restore`);
    log(`  svc restore onto ${other} took ${restoreMs} ms; ${delivered} of ${pending.length} pending deliveries delivered by the restored server`);

    const again = join(work, 'again.tar');
    const second = await runSvc(['backup', ...sourceFlags(middle), '--out', again], { env, timeoutMs: 600_000 });
    if (second.code !== 0) throw new Error(`svc backup of the restored store failed: ${second.stderr}`);
    const back = await fresh(options.backend);
    const restoredBack = await runSvc(['restore', again, ...targetFlags(back)], { env, timeoutMs: 600_000 });
    if (restoredBack.code !== 0) throw new Error(`svc restore back onto ${options.backend} failed: ${restoredBack.stderr}`);
    await checkStore(back, before, after, problems, `back on ${options.backend}`);
    return { posts: acknowledged.length, 'acknowledged before the backup': before.length, 'backup ms': backupMs, 'restore ms': restoreMs, 'archive bytes': whole.length, 'pending delivered': `${delivered}/${pending.length}` };
  });
}

function targetFlags(target: Backend): string[] {
  return target.databaseUrl ? ['--database-url', target.databaseUrl] : ['--data-dir', target.dataDir];
}

function sourceFlags(source: Backend): string[] {
  return ['--data-dir', source.dataDir, ...(source.databaseUrl ? ['--database-url', source.databaseUrl] : [])];
}

/** Whether the backend has any table (looked at without opening a store, which would make them). */
async function anyTable(target: Backend): Promise<boolean> {
  if (!target.databaseUrl) return (await stat(join(target.dataDir, 'svc.sqlite')).catch(() => null)) !== null;
  const client = new pg.Client({ connectionString: target.databaseUrl });
  await client.connect();
  try {
    return Number((await client.query<{ count: string }>(`select count(*) as count from pg_tables where schemaname = 'public'`)).rows[0]?.count ?? 0) > 0;
  } finally {
    await client.end();
  }
}

/** Every post acknowledged before the backup is there with its files, none sent after it; the ids of the deliveries still pending. */
async function checkStore(target: Backend, before: readonly Acknowledged[], after: readonly Acknowledged[], problems: { add(problem: string, group?: string): void }, where: string): Promise<string[]> {
  const store: Store = await target.openStore();
  try {
    const ids = new Set((await store.db.selectFrom('submissions').select('id').execute()).map((row) => row.id));
    for (const post of before) {
      if (!ids.has(post.id)) problems.add(`${where}: ${post.id}, acknowledged before the backup began, is missing`, 'lost');
      for (const sha256 of post.files) {
        const found = await store.files.find(sha256);
        if (!found) problems.add(`${where}: a file of ${post.id} is missing`, 'lost file');
      }
    }
    for (const post of after) if (ids.has(post.id)) problems.add(`${where}: ${post.id}, sent after the backup ended, is in it`, 'later');
    return (await store.db.selectFrom('deliveries').select('id').where('status', '=', 'pending').execute()).map((row) => row.id);
  } finally {
    await store.close();
  }
}
