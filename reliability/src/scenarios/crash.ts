import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { createForm, createWebhook, type FormFixture, newEncryptionKey, type SvcProcess, type WebhookReceiver } from '@svc/testkit';
import { verify, WEBHOOK_SIGNATURE_HEADER } from '@svc/webhooks';
import { delay, type Log, type ProblemList, seededRandom, type ScenarioResult } from '../harness/report.js';
import { withScenario, type ScenarioOptions } from '../harness/scenario.js';
import type { Store } from '@svc/server';

export interface CrashOptions extends ScenarioOptions {
  /** How many times the server is killed with SIGKILL (the issue asks for at least 5). */
  readonly kills: number;
  /** Concurrent submitters. */
  readonly connections: number;
  /** The server lives a random time in this range (ms) before each kill. */
  readonly upMs: readonly [number, number];
  /** After the last restart, how long every stored event has to arrive at the receiver. */
  readonly deliveryWaitMs: number;
  /** Share of submissions sent with an idempotency key (retried with it after a crash). */
  readonly keyedShare?: number;
  /** Share of submissions sent as multipart with a small file. */
  readonly fileShare?: number;
  readonly seed?: number;
}

interface Acknowledged {
  readonly id: string;
  readonly key: string | null;
  /** The answer came from a retry of a request a killed server never answered. */
  readonly afterCrash: boolean;
  /** The file sent with it, if any. */
  readonly file: string | null;
}

/** Delivery settings short enough that deliveries held by a killed worker come back within seconds. */
const deliveryFlags = ['--allow-private-targets', '--delivery-timeout', '2s', '--delivery-lease', '3500ms', '--delivery-poll-interval', '500ms', '--retry-schedule', '250ms,500ms,1s,1s,1s'];

/**
 * Crash: loads the form endpoint while a receiver records deliveries, kills the server with
 * SIGKILL at random moments and restarts it on the same data. Keyed submissions whose
 * request died with the server are sent again with the same key, as a careful client would.
 * Afterwards: every submission that got a 200 exists exactly once (by id, and by key), each
 * stored submission has exactly one event, and every event was delivered at least once.
 */
export function runCrashScenario(options: CrashOptions): Promise<ScenarioResult> {
  const seed = options.seed ?? Date.now() % 1_000_000;
  const random = seededRandom(seed);
  return withScenario({ name: 'crash', backend: options.backend, log: options.log }, async ({ backend, store, problems, log, startServer, stopServers, startReceiver }) => {
    // Bodies are kept: each delivery's signature and body are checked against the stored event.
    const receiver = await startReceiver({ keepBodies: true });
    const encryptionKey = newEncryptionKey();
    log(`crash on ${options.backend}: ${options.kills} kills, ${options.connections} submitters, up ${options.upMs[0]}–${options.upMs[1]} ms, seed ${seed}`);
    const form = await createForm(store, { rateLimit: { max: 1_000_000, windowSeconds: 3_600 } });
    const { secret } = await createWebhook(store, form, { url: `${receiver.url}/hook`, encryptionKey, dataDir: backend.dataDir, allowPrivateTargets: true });
    const start = (): Promise<SvcProcess> => startServer({ args: deliveryFlags, env: { SVC_ENCRYPTION_KEY: encryptionKey } });

    // Submitters wait on `up` while the server is down.
    let markUp: (running: SvcProcess) => void = () => undefined;
    let up: Promise<SvcProcess> = new Promise((resolve) => (markUp = resolve));
    const acknowledged: Acknowledged[] = [];
    const counts = { sent: 0, connectionFailures: 0, unanswered: 0, retriedKeys: 0, replayed: 0, otherStatus: 0 };
    let stopping = false;

    const submitter = async (worker: number): Promise<void> => {
      for (let n = 0; !stopping; n++) {
        const key = random() < (options.keyedShare ?? 0.7) ? `crash-${seed}-${worker}-${n}` : null;
        const file = random() < (options.fileShare ?? 0.2) ? `file ${seed} ${worker} ${n}\n`.repeat(1 + (n % 50)) : null;
        const body = (): string | FormData => {
          if (file === null) return JSON.stringify({ worker, n, email: 'load@example.com', message: 'crash test' });
          const form = new FormData();
          form.set('worker', String(worker));
          form.set('n', String(n));
          form.set('attachment', new Blob([file]), `w${worker}-${n}.txt`);
          return form;
        };
        let afterCrash = false;
        for (;;) {
          const running = await up;
          counts.sent += 1;
          try {
            const response = await fetch(`${running.url}/api/f/${form.endpointId}`, {
              method: 'POST',
              headers: { ...(file === null ? { 'content-type': 'application/json' } : {}), ...(key ? { 'idempotency-key': key } : {}) },
              body: body(),
              signal: AbortSignal.timeout(15_000),
            });
            const text = await response.text();
            if (response.status === 200) {
              const answer = JSON.parse(text) as { id: string };
              if (response.headers.get('idempotent-replayed') === 'true') counts.replayed += 1;
              acknowledged.push({ id: answer.id, key, afterCrash, file });
            } else {
              counts.otherStatus += 1;
              problems.add(`answer ${response.status} ${text.slice(0, 200)} (worker ${worker}, submission ${n})`);
            }
            break;
          } catch {
            counts.connectionFailures += 1;
            // No answer: the server died with the request. A keyed submission is sent again.
            if (key === null) {
              counts.unanswered += 1;
              break;
            }
            counts.retriedKeys += 1;
            afterCrash = true;
            if (running === server) await delay(20);
          }
        }
      }
    };

    let server = await start();
    markUp(server);
    const submitters = Array.from({ length: options.connections }, (_, worker) => submitter(worker));
    for (let kill = 1; kill <= options.kills; kill++) {
      const lifetime = options.upMs[0] + random() * (options.upMs[1] - options.upMs[0]);
      const before = acknowledged.length;
      await delay(lifetime);
      up = new Promise((resolve) => (markUp = resolve));
      await server.kill();
      log(`  kill ${kill}/${options.kills} after ${Math.round(lifetime)} ms: ${acknowledged.length} acknowledged so far (${acknowledged.length - before} in the last life), ${receiver.requests.length} deliveries received`);
      server = await start();
      markUp(server);
    }
    // Let the last life take some load too, then stop the submitters.
    await delay(options.upMs[0]);
    stopping = true;
    await Promise.all(submitters);

    const facts = await check(store, form, acknowledged, receiver, secret, options, problems, log);
    await stopServers();
    return { seed, kills: options.kills, requestsSent: counts.sent, acknowledged: acknowledged.length, ...facts, replayedAnswers: counts.replayed, keyedRetriesAfterCrash: counts.retriedKeys, unansweredWithoutKey: counts.unanswered, non200Answers: counts.otherStatus };
  });
}

async function check(
  store: Store,
  form: FormFixture,
  acknowledged: readonly Acknowledged[],
  receiver: WebhookReceiver,
  secret: string,
  options: CrashOptions,
  problems: ProblemList,
  log: Log,
): Promise<Record<string, number>> {
  const rows = await store.db.selectFrom('submissions').select(['id', 'idempotency_key', 'files']).where('form_id', '=', form.formId).execute();
  const filesOf = new Map(rows.map((row) => [row.id, JSON.parse(row.files) as { sha256: string; size: number }[]]));
  const stored = new Set(rows.map((row) => row.id));
  const byKey = new Map<string, string[]>();
  for (const row of rows) {
    if (row.idempotency_key !== null) byKey.set(row.idempotency_key, [...(byKey.get(row.idempotency_key) ?? []), row.id]);
  }
  const answeredIds = new Set<string>();
  for (const ack of acknowledged) {
    answeredIds.add(ack.id);
    if (!stored.has(ack.id)) problems.add(`LOST: submission ${ack.id} was answered 200${ack.afterCrash ? ' (after a crash)' : ''} but is not stored`);
    else if (ack.file !== null) await checkFile(store, ack.id, ack.file, filesOf.get(ack.id) ?? [], problems);
    if (ack.key !== null) {
      const ids = byKey.get(ack.key) ?? [];
      if (ids.length > 1) problems.add(`DUPLICATE: idempotency key ${ack.key} has ${ids.length} submissions`);
      else if (ids[0] !== undefined && ids[0] !== ack.id) problems.add(`key ${ack.key} was answered with ${ack.id} but the stored submission is ${ids[0]}`);
    }
  }
  for (const [key, ids] of byKey) if (ids.length > 1 && !acknowledged.some((ack) => ack.key === key)) problems.add(`DUPLICATE: key ${key} has ${ids.length} submissions`);

  const events = await store.db.selectFrom('events').select(['id', 'payload']).where('project_id', '=', form.projectId).execute();
  const eventsOf = new Map<string, string[]>();
  for (const event of events) {
    const submissionId = (JSON.parse(event.payload) as { data: { submission: { id: string } } }).data.submission.id;
    eventsOf.set(submissionId, [...(eventsOf.get(submissionId) ?? []), event.id]);
  }
  for (const id of stored) {
    const count = eventsOf.get(id)?.length ?? 0;
    if (count !== 1) problems.add(`submission ${id} has ${count} events (expected exactly 1)`);
  }
  for (const id of eventsOf.keys()) if (!stored.has(id)) problems.add(`an event refers to submission ${id}, which is not stored`);

  const expected = events.map((event) => event.id);
  log(`  checking: ${rows.length} stored, ${acknowledged.length} acknowledged; waiting for ${expected.length} events to be delivered`);
  const waitStarted = performance.now();
  try {
    await receiver.waitForEvents(expected, options.deliveryWaitMs);
  } catch (error) {
    const missing = expected.filter((id) => !receiver.eventIds.has(id));
    problems.add(`NOT DELIVERED: ${(error as Error).message}; first missing: ${missing.slice(0, 3).join(', ')}`);
  }
  const delivered = expected.filter((id) => receiver.eventIds.has(id)).length;
  // Every delivery is the stored event, byte for byte, signed with the webhook's secret.
  const payloads = new Map(events.map((event) => [event.id, event.payload]));
  let verified = 0;
  for (const request of receiver.requests) {
    const payload = payloads.get(request.eventId);
    if (payload === undefined) {
      problems.add(`a delivery carries event ${request.eventId}, which is not stored`, 'unknown event');
      continue;
    }
    if (request.body.toString('utf8') !== payload) problems.add(`the body of a delivery of ${request.eventId} is not the stored event`, 'body differs');
    try {
      verify(request.body, request.headers[WEBHOOK_SIGNATURE_HEADER], secret, { tolerance: 3_600 });
      verified += 1;
    } catch (error) {
      problems.add(`the signature of a delivery of ${request.eventId} does not verify: ${(error as Error).message}`, 'bad signature');
    }
  }
  return {
    stored: rows.length,
    storedButUnacknowledged: [...stored].filter((id) => !answeredIds.has(id)).length,
    events: events.length,
    eventsDelivered: delivered,
    deliveryRequests: receiver.requests.length,
    signaturesVerified: verified,
    withFiles: acknowledged.filter((ack) => ack.file !== null).length,
    redeliveries: receiver.requests.length - receiver.eventIds.size,
    finalDrainMs: Math.round(performance.now() - waitStarted),
  };
}

/** The file of an acknowledged submission is stored under its hash, with exactly the bytes sent. */
async function checkFile(store: Store, id: string, sent: string, files: readonly { sha256: string; size: number }[], problems: ProblemList): Promise<void> {
  const sha256 = createHash('sha256').update(sent).digest('hex');
  if (!files.some((file) => file.sha256 === sha256)) {
    problems.add(`LOST FILE: submission ${id} does not list the file it was sent with`, 'file not listed');
    return;
  }
  const content = await store.files.open(sha256);
  if (content === null) {
    problems.add(`LOST FILE: the file of submission ${id} (${sha256}) is not stored`, 'file missing');
    return;
  }
  if (!(await buffer(content)).equals(Buffer.from(sent))) problems.add(`the stored file of submission ${id} differs from what was sent`, 'file differs');
}
