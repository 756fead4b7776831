import { spawn } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { adminDatabaseUrl, createForm, postJson } from '@svc/testkit';
import type { ScenarioResult } from '../harness/report.js';
import { withScenario, type ScenarioOptions } from '../harness/scenario.js';

export interface DurabilityOptions extends ScenarioOptions {
  /** Submissions posted one after another: each is its own commit. */
  readonly submissions: number;
}

/**
 * Durability, seen from outside: a kill -9 cannot tell a commit that reached the disk from
 * one that sat in the page cache (the kernel keeps the page cache when a process dies), so
 * the crash scenario alone passes with fsync configured away. This scenario counts the
 * syncs themselves while submissions are posted one at a time, each its own commit:
 *
 * - SQLite: every fsync/fdatasync of the server process and its threads (the writer thread
 *   included), counted by `strace -f`. WAL with `synchronous=FULL` syncs the log at each
 *   commit, so there must be at least one per acknowledged submission; `synchronous=NORMAL`
 *   or `OFF` syncs only at checkpoints, and fails the check.
 * - PostgreSQL: `pg_stat_wal.wal_sync`, the WAL syncs of the whole cluster. With
 *   `synchronous_commit=on` every commit waits for its own sync; with `off` the WAL writer
 *   syncs about every 200 ms, far fewer than one per submission, and fails the check.
 */
export function runDurabilityScenario(options: DurabilityOptions): Promise<ScenarioResult> {
  return withScenario({ name: 'durability', backend: options.backend, log: options.log }, async ({ store, problems, log, startServer }) => {
    log(`durability on ${options.backend}: ${options.submissions} submissions, one commit each`);
    const form = await createForm(store, { rateLimit: { max: 1_000_000, windowSeconds: 3_600 } });
    const server = await startServer();
    const url = `${server.url}/api/f/${form.endpointId}`;
    // Warm up (first-use work such as prepared statements is not counted). The counts end
    // when the server has stopped, which syncs once or twice more: that only adds.
    await postJson(url, { warm: true });

    const counter = options.backend === 'sqlite' ? await straceSyncs(server.pid) : await walSyncs();
    let acknowledged = 0;
    for (let n = 0; n < options.submissions; n++) {
      const answer = await postJson(url, { n, message: 'durability' });
      if (answer.status === 200) acknowledged += 1;
      else problems.add(`answer ${answer.status} ${answer.text.slice(0, 200)}`, 'non-200');
    }
    await server.stop();
    const syncs = await counter.stop();
    const perSubmission = acknowledged === 0 ? 0 : syncs / acknowledged;
    log(`  ${acknowledged} acknowledged, ${syncs} ${counter.what}: ${perSubmission.toFixed(2)} per submission`);
    if (syncs < acknowledged) {
      problems.add(`NOT DURABLE: ${syncs} ${counter.what} for ${acknowledged} acknowledged submissions, each its own commit: commits are answered without reaching the disk`);
    }
    return { acknowledged, syncs, syncsPerSubmission: Number(perSubmission.toFixed(2)), counted: counter.what };
  });
}

interface SyncCounter {
  readonly what: string;
  stop(): Promise<number>;
}

/** fsync and fdatasync calls of `pid` and every thread it has or starts, until stop(). */
async function straceSyncs(pid: number): Promise<SyncCounter> {
  const output = join(tmpdir(), `svc-strace-${pid}-${Date.now()}.txt`);
  const child = spawn('strace', ['-f', '-qq', '-e', 'trace=fsync,fdatasync', '-o', output, '-p', String(pid)], { stdio: ['ignore', 'ignore', 'pipe'] });
  const failed = new Promise<never>((_resolve, reject) => {
    child.once('error', (error) => reject(new Error(`strace could not run (install it: apt-get install strace): ${error.message}`)));
  });
  // strace prints nothing on attach with -qq; it is attached once its output file exists and
  // a first traced call could land there. Attaching takes well under a second.
  await Promise.race([failed, new Promise((resolve) => setTimeout(resolve, 1_000))]);
  return {
    what: 'fsync/fdatasync calls (strace -f)',
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGINT');
        await exited;
      }
      const text = await readFile(output, 'utf8').catch(() => '');
      await rm(output, { force: true });
      return text.split('\n').filter((line) => /\b(fsync|fdatasync)\(\d+\)\s*=\s*0\b/.test(line)).length;
    },
  };
}

/** WAL syncs of the PostgreSQL cluster (pg_stat_wal, PostgreSQL 14 and later), until stop(). */
async function walSyncs(): Promise<SyncCounter> {
  const client = new pg.Client({ connectionString: adminDatabaseUrl });
  await client.connect();
  const read = async () => Number((await client.query<{ wal_sync: string }>('SELECT wal_sync FROM pg_stat_wal')).rows[0]?.wal_sync ?? 0);
  const before = await read();
  return {
    what: 'WAL syncs (pg_stat_wal)',
    async stop() {
      // Read after the server stopped: a backend flushes its statistics when it exits
      // (while idle, only every 10 s or so).
      const after = await read();
      await client.end();
      return after - before;
    },
  };
}
