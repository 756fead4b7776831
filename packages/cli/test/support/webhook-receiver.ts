import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

export interface ReceivedRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/**
 * A webhook receiver on a random local port: answers 200 on every path except `/fail`
 * (500), and hands each request to whoever awaits `next()`, so tests wait for deliveries
 * instead of sleeping.
 */
export interface WebhookReceiver {
  readonly url: string;
  next(): Promise<ReceivedRequest>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const queued: ReceivedRequest[] = [];
  const waiting: ((request: ReceivedRequest) => void)[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received = { path: request.url ?? '/', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      response.writeHead(received.path === '/fail' ? 500 : 200, { 'content-type': 'text/plain' }).end(received.path === '/fail' ? 'nope' : 'thanks');
      const waiter = waiting.shift();
      if (waiter) waiter(received);
      else queued.push(received);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the receiver has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    next: () => {
      const request = queued.shift();
      return request ? Promise.resolve(request) : new Promise((resolve) => waiting.push(resolve));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
