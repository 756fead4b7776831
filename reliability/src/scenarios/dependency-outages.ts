import { execFile } from 'node:child_process';
import { appendFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { createForm, createWebhook, newEncryptionKey, startPrivatePostgres, startPrivateRedis, type FormFixture, type PrivatePostgres, type PrivateRedis, type SvcProcess, type WebhookReceiver } from '@svc/testkit';
import { openStore, type Store } from '@svc/server';
import { delay, type Log, type ScenarioResult } from '../harness/report.js';
import { freshBackend, ScenarioSkipped, withScenario, type Cleanup, type ScenarioBackend, type ScenarioRun } from '../harness/scenario.js';
import { countStatuses, longestMs, startSteadyLoad, type LoadOutcome, type SteadyLoad } from '../harness/steady-load.js';

const run = promisify(execFile);

export interface OutageOptions {
  readonly clients: number;
  readonly perSecond: number;
  /** How long the dependency stays away each time. */
  readonly outageMs: number;
  /** Load before and after each outage. */
  readonly steadyMs: number;
  /** After the load, how long every stored event has to reach the receiver. */
  readonly deliveryWaitMs: number;
  readonly log?: Log;
}

/** Short delivery settings, so that the scenario sees deliveries made during an outage recorded or made again. */
const deliveryFlags = ['--allow-private-targets', '--delivery-timeout', '2s', '--delivery-lease', '5s', '--delivery-poll-interval', '500ms', '--retry-schedule', '250ms,500ms,1s,1s,1s', '--rate-limit', '1000000/1m', '--health-interval', '250ms'];

/** Where every outage scenario notes what it found. */
type Findings = Pick<ScenarioRun<ScenarioBackend>, 'facts' | 'problems'>;

/**
 * The checks common to every outage: the process stayed up; no request was answered
 * anything but 200 or 503 (a 500, a hang, a dropped connection are problems); every
 * acknowledged submission is stored, once.
 */
async function checkLoad(store: Store, form: FormFixture, stayedUp: { alive(): boolean; stderr(): string }, outcomes: readonly LoadOutcome[], findings: Findings): Promise<void> {
  const { facts, problems } = findings;
  const acknowledged = outcomes.filter((outcome) => outcome.status === 200 && outcome.id !== null);
  facts['sent'] = outcomes.length;
  facts['acknowledged'] = acknowledged.length;
  facts['answers'] = countStatuses(outcomes);
  facts['longest request ms'] = longestMs(outcomes);
  for (const outcome of outcomes) {
    if (outcome.status !== 200 && outcome.status !== 503) problems.add(`a request was answered ${outcome.status === 0 ? 'with a failed connection' : outcome.status}, not 200 or 503`, `status ${outcome.status}`);
  }
  const stored = await store.db.selectFrom('submissions').select(['id', 'idempotency_key']).where('form_id', '=', form.formId).execute();
  const ids = new Set(stored.map((row) => row.id));
  const lost = acknowledged.filter((outcome) => !ids.has(outcome.id!));
  const keys = new Map<string, number>();
  for (const row of stored) if (row.idempotency_key) keys.set(row.idempotency_key, (keys.get(row.idempotency_key) ?? 0) + 1);
  const duplicated = [...keys.values()].filter((count) => count > 1).length;
  facts['lost'] = lost.length;
  facts['duplicated'] = duplicated;
  if (lost.length > 0) problems.add(`${lost.length} acknowledged submissions are not stored (e.g. ${lost[0]!.id})`);
  if (duplicated > 0) problems.add(`${duplicated} idempotency keys are stored more than once`);
  facts['stayed up'] = stayedUp.alive() ? 'yes' : 'no';
  if (!stayedUp.alive()) problems.add(`the server process exited during the outage:\n${stayedUp.stderr().slice(-2_000)}`);
}

/** Polls /healthz until `holds` accepts its status; the time it took, or null if it never did within `limitMs`. */
async function healthTurns(server: SvcProcess, holds: (status: number, body: { checks?: Record<string, string> }) => boolean, limitMs: number): Promise<number | null> {
  const started = performance.now();
  while (performance.now() - started < limitMs) {
    const answer = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(2_000) }).then(
      async (response) => ({ status: response.status, body: (await response.json()) as { checks?: Record<string, string> } }),
      () => ({ status: 0, body: {} }),
    );
    if (holds(answer.status, answer.body)) return Math.round(performance.now() - started);
    await delay(50);
  }
  return null;
}

/** Waits for the first 200 of a request started after `since`; ms from `since`, or null within `limitMs`. */
async function recovery(load: SteadyLoad, since: number, limitMs: number): Promise<number | null> {
  while (performance.now() - since < limitMs) {
    const first = load.firstAcknowledgedAfter(since);
    if (first) return Math.round(first.endedAt - since);
    await delay(25);
  }
  return null;
}

async function checkDeliveries(store: Store, receiver: WebhookReceiver, waitMs: number, findings: Findings): Promise<void> {
  const events = await store.db.selectFrom('events').select('id').where('type', '=', 'form.submission.created').execute();
  findings.facts['events'] = events.length;
  try {
    await receiver.waitForEvents(events.map((event) => event.id), waitMs);
    findings.facts['delivered'] = events.length;
  } catch (error) {
    findings.problems.add(`not every event was delivered after the outage: ${(error as Error).message}`);
  }
}

/** The scenario's own PostgreSQL cluster and Redis, never the shared servers. */
interface OwnCluster extends ScenarioBackend {
  readonly postgres: PrivatePostgres;
}

async function ownCluster(defer: (cleanup: Cleanup) => void): Promise<OwnCluster> {
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-pg-restart-'));
  defer(() => rm(dataDir, { recursive: true, force: true }));
  const postgres = await startPrivatePostgres();
  defer(() => postgres.remove());
  const redis = await startPrivateRedis();
  defer(() => redis.stop());
  return {
    backend: 'postgres',
    dataDir,
    serverArgs: ['--data-dir', dataDir, '--database-url', postgres.url, '--redis-url', redis.url],
    openStore: () => openStore({ dataDir, databaseUrl: postgres.url }),
    postgres,
  };
}

/**
 * PostgreSQL stopped under load (`pg_ctl stop -m immediate`, a crash, then `-m fast`, a
 * clean shutdown), and started again after `outageMs`, on a cluster the harness made
 * for itself (never the shared server). Deliveries run meanwhile. The process must stay
 * up, answer 200 or 503 only, lose and duplicate nothing, and take submissions again soon
 * after PostgreSQL is back; every event is delivered.
 */
export function runPostgresRestartScenario(options: OutageOptions): Promise<ScenarioResult> {
  const setup = { name: 'postgres-restart', backend: 'postgres', make: ownCluster, log: options.log, errors: 'report' } as const;
  return withScenario(setup, async ({ backend, store, facts, problems, log, startServer, stopServers, startReceiver }) => {
    const { postgres } = backend;
    log(`postgres restart: own cluster, ${options.clients} clients at ${options.perSecond}/s, PostgreSQL away ${options.outageMs} ms, stopped immediate then fast`);
    const receiver = await startReceiver();
    const encryptionKey = newEncryptionKey();
    const form = await createForm(store);
    await createWebhook(store, form, { url: `${receiver.url}/hook`, encryptionKey, dataDir: backend.dataDir, allowPrivateTargets: true });
    const server = await startServer({ args: deliveryFlags, env: { SVC_ENCRYPTION_KEY: encryptionKey }, logLevel: 'info' });
    const load = startSteadyLoad({ url: `${server.url}/api/f/${form.endpointId}`, clients: options.clients, perSecond: options.perSecond, fileShare: 0.1 });
    for (const mode of ['immediate', 'fast'] as const) {
      await delay(options.steadyMs);
      const before = load.outcomes.length;
      await postgres.stop(mode);
      const down = await healthTurns(server, (status) => status === 503, options.outageMs);
      await delay(Math.max(0, options.outageMs - (down ?? options.outageMs)));
      await postgres.start();
      const back = performance.now();
      const recovered = await recovery(load, back, 30_000);
      facts[`${mode}: health 503 after ms`] = down ?? 'never';
      facts[`${mode}: recovered after ms`] = recovered ?? 'never';
      if (down === null) problems.add(`health did not turn 503 while PostgreSQL was stopped (${mode})`);
      if (recovered === null) problems.add(`no submission was acknowledged within 30 s of PostgreSQL's start (${mode})`);
      log(`  stopped ${mode}: health 503 after ${down ?? 'never'} ms, a 200 again ${recovered ?? 'never'} ms after the start; ${load.outcomes.length - before} requests meanwhile`);
    }
    await delay(options.steadyMs);
    const outcomes = await load.stop();
    await checkLoad(store, form, server, outcomes, { facts, problems });
    await checkDeliveries(store, receiver, options.deliveryWaitMs, { facts, problems });
    facts['dependency log lines'] = server.stderr().split('\n').filter((line) => /database (unavailable|is back)/.test(line)).length;
    await stopServers();
  });
}

/** A database of its own on the shared PostgreSQL, and a Redis of the scenario's own. */
interface OwnRedis extends ScenarioBackend {
  readonly redis: PrivateRedis;
}

async function ownRedis(defer: (cleanup: Cleanup) => void): Promise<OwnRedis> {
  const backend = await freshBackend('postgres', 'svcredis')(defer);
  const redis = await startPrivateRedis();
  defer(() => redis.stop());
  return {
    backend: 'postgres',
    dataDir: backend.dataDir,
    serverArgs: ['--data-dir', backend.dataDir, '--database-url', backend.databaseUrl!, '--redis-url', redis.url],
    openStore: () => backend.openStore(),
    redis,
  };
}

/**
 * Redis frozen (SIGSTOP for `outageMs`, then SIGCONT) and then killed and started again,
 * under load, on a Redis the harness starts itself. No request may wait on the frozen
 * Redis: the longest must stay well under the freeze. Health stays 200 (submissions are
 * still stored) and names Redis; the log says when it went and came back.
 */
export function runRedisOutageScenario(options: OutageOptions): Promise<ScenarioResult> {
  const setup = { name: 'redis-outage', backend: 'postgres', make: ownRedis, log: options.log, errors: 'report' } as const;
  return withScenario(setup, async ({ backend, store, facts, problems, log, startServer, stopServers }) => {
    const { redis } = backend;
    log(`redis outage: own redis-server, ${options.clients} clients at ${options.perSecond}/s, frozen ${options.outageMs} ms, then killed ${options.outageMs} ms`);
    const form = await createForm(store);
    const server = await startServer({ args: deliveryFlags, logLevel: 'info' });
    const load = startSteadyLoad({ url: `${server.url}/api/f/${form.endpointId}`, clients: options.clients, perSecond: options.perSecond });
    await delay(options.steadyMs);
    redis.freeze();
    const noticed = await healthTurns(server, (_status, body) => body.checks?.['redis'] === 'unavailable', options.outageMs);
    await delay(Math.max(0, options.outageMs - (noticed ?? options.outageMs)));
    redis.thaw();
    const back = await healthTurns(server, (_status, body) => body.checks?.['redis'] === 'ok', 30_000);
    facts['frozen: noticed after ms'] = noticed ?? 'never';
    facts['thawed: back after ms'] = back ?? 'never';
    if (noticed === null) problems.add('health never named Redis unavailable while it was frozen');
    if (back === null) problems.add('health never named Redis ok again after it was thawed');
    await delay(options.steadyMs);
    await redis.kill();
    await delay(options.outageMs);
    await redis.restart();
    const restarted = await healthTurns(server, (_status, body) => body.checks?.['redis'] === 'ok', 30_000);
    facts['killed: back after ms'] = restarted ?? 'never';
    if (restarted === null) problems.add('health never named Redis ok again after it was restarted');
    await delay(options.steadyMs);
    const outcomes = await load.stop();
    await checkLoad(store, form, server, outcomes, { facts, problems });
    const refused = outcomes.filter((outcome) => outcome.status !== 200).length;
    if (refused > 0) problems.add(`${refused} submissions were refused while only Redis was away; they should have been stored with per-instance limits`);
    // Frozen Redis must not hold requests: a command gives up after 250 ms.
    if (longestMs(outcomes) > options.outageMs / 2) problems.add(`the longest request took ${longestMs(outcomes)} ms: requests waited on the frozen Redis`);
    const lines = server.stderr().split('\n');
    facts['redis log lines'] = lines.filter((line) => /redis (unavailable|is back)/.test(line)).length;
    await stopServers();
  });
}

/** SQLite on a 48 MiB tmpfs of its own; skipped where mounting is not allowed. */
interface SmallDisk extends ScenarioBackend {
  readonly mountPoint: string;
}

async function smallDisk(defer: (cleanup: Cleanup) => void): Promise<SmallDisk> {
  const mountPoint = await mkdtemp(join(tmpdir(), 'svc-disk-full-'));
  defer(() => rm(mountPoint, { recursive: true, force: true }));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', 'size=48m,mode=0700', 'tmpfs', mountPoint]);
  } catch (error) {
    throw new ScenarioSkipped('mounting a tmpfs is not allowed here', `⚠ skipping disk full: cannot mount a tmpfs here (${(error as Error).message.split('\n')[0]})`);
  }
  defer(() => run('umount', ['-l', mountPoint]).catch(() => undefined));
  const dataDir = join(mountPoint, 'data');
  await mkdir(dataDir, { recursive: true });
  return { backend: 'sqlite', dataDir, serverArgs: ['--data-dir', dataDir], openStore: () => openStore({ dataDir }), mountPoint };
}

/**
 * A full disk on SQLite: the data dir on a small tmpfs of its own, filled under a load with
 * uploads until nothing more fits, then freed. Answers must be 200 or 503, health 503 while
 * full, nothing acknowledged lost (rows and files), the database intact. Where mounting is
 * not allowed, the scenario is skipped with a visible message.
 */
export function runDiskFullScenario(options: OutageOptions): Promise<ScenarioResult> {
  const setup = { name: 'disk-full', backend: 'sqlite', make: smallDisk, log: options.log, errors: 'report' } as const;
  return withScenario(setup, async ({ backend, store, facts, problems, log, startServer, stopServers, closeStore, reopenStore }) => {
    log(`disk full: SQLite on a 48 MiB tmpfs, ${options.clients} clients at ${options.perSecond}/s with uploads, full for ${options.outageMs} ms`);
    const form = await createForm(store);
    await closeStore();
    const server = await startServer({ args: ['--min-free-space', '4MiB', ...deliveryFlags], logLevel: 'info' });
    const load = startSteadyLoad({ url: `${server.url}/api/f/${form.endpointId}`, clients: options.clients, perSecond: options.perSecond, fileShare: 0.5, fileBytes: 64 * 1024 });
    await delay(options.steadyMs);
    const filler = join(backend.mountPoint, 'filler');
    const chunk = Buffer.alloc(1024 * 1024, 1);
    for (;;) {
      try {
        await appendFile(filler, chunk);
      } catch {
        break;
      }
    }
    for (let size = 64 * 1024; size >= 512; size /= 2) await appendFile(filler, chunk.subarray(0, size)).catch(() => undefined);
    const full = await healthTurns(server, (status) => status === 503, options.outageMs);
    facts['health 503 after ms'] = full ?? 'never';
    if (full === null) problems.add('health did not turn 503 on a full disk');
    await delay(Math.max(0, options.outageMs - (full ?? options.outageMs)));
    const duringFull = load.outcomes.length;
    await rm(filler);
    const freed = performance.now();
    const recovered = await recovery(load, freed, 30_000);
    const healthy = await healthTurns(server, (status) => status === 200, 30_000);
    facts['recovered after ms'] = recovered ?? 'never';
    facts['health 200 again after ms'] = healthy ?? 'never';
    if (recovered === null) problems.add('no submission was acknowledged within 30 s of the disk being freed');
    if (healthy === null) problems.add('health did not turn 200 again within 30 s of the disk being freed');
    log(`  full: health 503 after ${full ?? 'never'} ms; ${duringFull} requests so far; a 200 again ${recovered ?? 'never'} ms after the disk was freed`);
    await delay(options.steadyMs);
    const outcomes = await load.stop();
    const alive = server.alive();
    const stderr = server.stderr();
    await stopServers();
    const reopened = await reopenStore();
    await checkLoad(reopened, form, { alive: () => alive, stderr: () => stderr }, outcomes, { facts, problems });
    const integrity = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(reopened.db);
    facts['integrity_check'] = integrity.rows.map((row) => row.integrity_check).join(', ');
    if (facts['integrity_check'] !== 'ok') problems.add(`integrity_check: ${facts['integrity_check']}`);
    const files = await reopened.db.selectFrom('submissions').select('files').where('files', '!=', '[]').execute();
    let missing = 0;
    for (const row of files) {
      for (const file of JSON.parse(row.files) as { sha256: string }[]) {
        const stream = await reopened.files.open(file.sha256);
        if (stream === null) missing += 1;
        else stream.destroy();
      }
    }
    facts['stored files missing'] = missing;
    if (missing > 0) problems.add(`${missing} files of stored submissions are missing`);
  });
}

/**
 * The data directory deleted under load on SQLite: no request that started after the
 * deletion may be acknowledged (it would be stored in a deleted file), health turns 503
 * within seconds, the process stays up, and the next start says it created a new store.
 */
export function runDataDirRemovedScenario(options: OutageOptions): Promise<ScenarioResult> {
  const setup = { name: 'data-dir-removed', backend: 'sqlite', make: freshBackend('sqlite', 'svcgone'), log: options.log, errors: 'report' } as const;
  return withScenario(setup, async ({ backend, store, facts, problems, log, startServer, closeStore }) => {
    log(`data dir removed: SQLite, ${options.clients} clients at ${options.perSecond}/s, the directory deleted under load`);
    const form = await createForm(store);
    await closeStore();
    const server = await startServer({ args: deliveryFlags, logLevel: 'info' });
    const load = startSteadyLoad({ url: `${server.url}/api/f/${form.endpointId}`, clients: options.clients, perSecond: options.perSecond, fileShare: 0.2 });
    await delay(options.steadyMs);
    // Uploads keep creating staged files while the tree is removed: retried until it is gone.
    await rm(backend.dataDir, { recursive: true, force: true, maxRetries: 20, retryDelay: 10 });
    const removed = performance.now();
    const noticed = await healthTurns(server, (status) => status === 503, 10_000);
    facts['health 503 after ms'] = noticed ?? 'never';
    if (noticed === null) problems.add('health did not turn 503 within 10 s of the data directory being deleted');
    await delay(options.outageMs);
    const outcomes = await load.stop();
    const after = outcomes.filter((outcome) => outcome.startedAt > removed);
    const acknowledgedAfter = after.filter((outcome) => outcome.status === 200).length;
    facts['sent after the deletion'] = after.length;
    facts['acknowledged after the deletion'] = acknowledgedAfter;
    facts['answers after the deletion'] = countStatuses(after);
    facts['longest request ms'] = longestMs(outcomes);
    if (acknowledgedAfter > 0) problems.add(`${acknowledgedAfter} submissions were acknowledged into the deleted database`);
    for (const outcome of after) if (outcome.status !== 503) problems.add(`a request after the deletion was answered ${outcome.status}`, `status ${outcome.status}`);
    facts['stayed up'] = server.alive() ? 'yes' : 'no';
    if (!server.alive()) problems.add('the server process exited after the data directory was deleted');
    facts['log lines'] = server.stderr().split('\n').filter((line) => /storage (unavailable|is back)/.test(line)).length;
    await server.stop();
    const next = await startServer({ logLevel: 'info' });
    const said = next.stderr().includes(`created a new, empty store in ${backend.dataDir}`);
    facts['next start says it created a new store'] = said ? 'yes' : 'no';
    if (!said) problems.add('the start on the emptied data directory did not say it created a new store');
    await next.stop();
  });
}
