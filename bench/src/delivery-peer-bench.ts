import pg from 'pg';
import { Logger, makeWorkerUtils, runMigrations } from 'graphile-worker';
import { createBackend, createForm, createWebhook, newEncryptionKey, quantiles, startReceiver, startSvc, type SvcProcess, type WebhookReceiver } from '@svc/testkit';
import { newId } from '@svc/server/testing';
import { submissionEventPayload } from './load-shapes.js';
import { startBenchProcess } from './processes.js';

/** One queue's figures for the same burst of events. */
export interface QueueFigures {
  readonly deliveriesPerSecond: number;
  /** From the commit that enqueued an event to its delivery's arrival at the receiver. */
  readonly latencyMs: { readonly p50: number; readonly p99: number; readonly max: number };
  /** Requests beyond one per event. */
  readonly redeliveries: number;
}

export interface DeliveryPeerFigures {
  readonly events: number;
  readonly workers: number;
  /** In-flight deliveries per worker process (svc's per-webhook limit; graphile-worker's concurrency). */
  readonly concurrency: number;
  readonly svc: QueueFigures;
  readonly graphileWorker: QueueFigures;
}

const batchSize = 500;
/** svc's default `--webhook-concurrency`: what one worker process sends one webhook at once. */
const concurrency = 8;

/**
 * svc's delivery worker beside graphile-worker (issue 16), in the same run on the same
 * PostgreSQL database and against the same kind of local receiver: the workers run first,
 * then `events` events are enqueued in commits of 500 as fast as the database takes them
 * (svc: outbox rows and a NOTIFY, as the form endpoint writes them; graphile-worker:
 * `addJobs`). Its task does what svc's worker does: sign, POST, record the outcome.
 */
export async function benchDeliveryPeer(events: number, workers: number, nodeArgs: readonly string[]): Promise<DeliveryPeerFigures> {
  const backend = await createBackend('postgres');
  const store = await backend.openStore();
  const databaseUrl = backend.databaseUrl!;
  try {
    // svc first, then graphile-worker; each with a receiver of its own.
    const encryptionKey = newEncryptionKey();
    const form = await createForm(store);
    const svcReceiver = await startReceiver({ keepBodies: false });
    const webhook = await createWebhook(store, form, { url: `${svcReceiver.url}/hook`, encryptionKey, dataDir: backend.dataDir, allowPrivateTargets: true });
    const body = submissionEventPayload(form);
    const servers: SvcProcess[] = [];
    let svc: QueueFigures;
    try {
      const args = [...backend.serverArgs, '--allow-private-targets', '--role', 'worker', '--webhook-concurrency', String(concurrency)];
      servers.push(...(await Promise.all(Array.from({ length: workers }, () => startSvc({ args, env: { SVC_ENCRYPTION_KEY: encryptionKey }, nodeArgs })))));
      svc = await burst(svcReceiver, events, async (ids) => {
        const now = Date.now();
        await store.db
          .insertInto('events')
          .values(ids.map((id) => ({ id, project_id: form.projectId, type: 'form.submission.created', payload: body, created_at: now, dispatched_at: null })))
          .execute();
        store.signals.events.announce();
      }, () => newId('evt'));
    } finally {
      for (const server of servers) await server.stop();
      await svcReceiver.close();
    }

    const peerReceiver = await startReceiver({ keepBodies: false });
    await runMigrations({ connectionString: databaseUrl, logger: quietLogger() });
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query('create table if not exists bench_outcomes (event_id text not null, status integer not null, duration_ms integer not null, attempted_at bigint not null)');
    await client.end();
    const utils = await makeWorkerUtils({ connectionString: databaseUrl, logger: quietLogger() });
    const peers: Awaited<ReturnType<typeof startBenchProcess>>[] = [];
    let graphileWorker: QueueFigures;
    try {
      for (let index = 0; index < workers; index += 1) {
        peers.push(await startBenchProcess('./graphile-worker-process.js', [databaseUrl, peerReceiver.url, webhook.secret, String(concurrency)], nodeArgs));
      }
      let sequence = 0;
      graphileWorker = await burst(peerReceiver, events, async (ids) => {
        await utils.addJobs(ids.map((id) => ({ identifier: 'deliver', payload: { id, type: 'form.submission.created', body } })));
      }, () => `evt_peer_${(sequence += 1)}`);
    } finally {
      for (const peer of peers) await peer.stop();
      await utils.release();
      await peerReceiver.close();
    }
    return { events, workers, concurrency, svc, graphileWorker };
  } finally {
    await store.close();
    await backend.cleanup();
  }
}

/** Enqueues `events` ids in commits of 500, waits for each to arrive once, and measures. */
async function burst(receiver: WebhookReceiver, events: number, enqueue: (ids: string[]) => Promise<void>, nextId: () => string): Promise<QueueFigures> {
  const enqueuedAt = new Map<string, number>();
  for (let start = 0; start < events; start += batchSize) {
    const ids = Array.from({ length: Math.min(batchSize, events - start) }, nextId);
    await enqueue(ids);
    const at = performance.now();
    for (const id of ids) enqueuedAt.set(id, at);
  }
  await receiver.waitForEvents(enqueuedAt.keys(), 300_000);
  const arrived = new Map<string, number>();
  for (const request of receiver.requests) if (!arrived.has(request.eventId)) arrived.set(request.eventId, request.at);
  const latency = quantiles([...enqueuedAt].map(([id, at]) => arrived.get(id)! - at));
  const times = [...arrived.values()].sort((a, b) => a - b);
  return {
    deliveriesPerSecond: (events / (times[times.length - 1]! - times[0]!)) * 1000,
    latencyMs: { p50: latency(0.5), p99: latency(0.99), max: latency(1) },
    redeliveries: receiver.requests.length - arrived.size,
  };
}

function quietLogger(): Logger {
  return new Logger(() => () => undefined);
}
