// The delivery ceiling (bench/README.md): a plain loop that makes the requests of a delivery
// run and nothing else. It signs each body with @svc/webhooks and POSTs it with undici (svc's
// HTTP client) over keep-alive connections, `CONCURRENCY` at a time, to the receiver, with the
// headers a delivery carries: no queue, no database, no lease, no record.
// `node delivery-ceiling-process.js RECEIVER_URL SECRET CONCURRENCY COUNT BODY` prints
// `{"ready":true}`, sends COUNT requests, then `{"sent":COUNT}`, and exits.
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import { WEBHOOK_DELIVERY_HEADER, WEBHOOK_EVENT_HEADER, WEBHOOK_EVENT_ID_HEADER, WEBHOOK_SIGNATURE_HEADER, sign } from '@svc/webhooks';

const [receiverUrl, secret, concurrency, count, body] = process.argv.slice(2) as [string, string, string, string, string];
const agent = new Agent({ keepAliveTimeout: 4_000 });
const url = new URL(`${receiverUrl}/hook`);
let next = 0;

async function sendOne(): Promise<void> {
  const id = randomUUID();
  const response = await request(url, {
    dispatcher: agent,
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'svc-webhooks/1',
      [WEBHOOK_SIGNATURE_HEADER]: sign([secret], body, Math.floor(Date.now() / 1000)),
      [WEBHOOK_EVENT_HEADER]: 'form.submission.created',
      [WEBHOOK_EVENT_ID_HEADER]: `evt_${id}`,
      [WEBHOOK_DELIVERY_HEADER]: `dlv_${id}`,
    },
  });
  await response.body.arrayBuffer();
}

async function lane(): Promise<void> {
  while (next < Number(count)) {
    next += 1;
    await sendOne();
  }
}

process.stdout.write(`${JSON.stringify({ ready: true })}\n`);
await Promise.all(Array.from({ length: Number(concurrency) }, lane));
process.stdout.write(`${JSON.stringify({ sent: Number(count) })}\n`);
await agent.close();
