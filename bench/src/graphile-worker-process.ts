// graphile-worker as the delivery bench's peer (bench/README.md, "Delivery beside
// graphile-worker"): one worker process whose task does what svc's delivery worker does for
// an event: sign the body, POST it to the receiver, record the outcome in a table.
// `node graphile-worker-process.js DATABASE_URL RECEIVER_URL SECRET CONCURRENCY` prints
// `{"ready":true}` once it runs; SIGTERM stops it.
import { Logger, run, type Task } from 'graphile-worker';
import { sign } from '@svc/webhooks';

const [connectionString, receiverUrl, secret, concurrency] = process.argv.slice(2) as [string, string, string, string];

interface DeliverPayload {
  readonly id: string;
  readonly type: string;
  readonly body: string;
}

const deliver: Task = async (payload, helpers) => {
  const { id, type, body } = payload as DeliverPayload;
  const started = Date.now();
  const response = await fetch(`${receiverUrl}/hook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-event-id': id, 'x-service-event': type, 'x-service-signature': sign(secret, body) },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  await response.arrayBuffer();
  await helpers.query('insert into bench_outcomes (event_id, status, duration_ms, attempted_at) values ($1, $2, $3, $4)', [id, response.status, Date.now() - started, started]);
  if (!response.ok) throw new Error(`the receiver answered ${response.status}`);
};

const runner = await run({
  connectionString,
  concurrency: Number(concurrency),
  noHandleSignals: true,
  pollInterval: 1_000,
  logger: new Logger(() => () => undefined),
  taskList: { deliver },
});
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
process.on('SIGTERM', () => void runner.stop().then(() => process.exit(0)));
