import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got, with its raw body. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  /** Date.now() when the request had fully arrived. */
  readonly receivedAt: number;
}

/** How to answer a request; `hang` never answers (until the receiver closes). */
export type Reply = { status: number; headers?: Record<string, string>; body?: string | Buffer } | { hang: true };

export type Responder = (request: ReceivedRequest, index: number) => Reply;

export interface WebhookReceiver {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  readonly port: number;
  readonly requests: ReceivedRequest[];
  /** Replaces how requests are answered (default: 204). */
  respond(responder: Responder): void;
  /** Resolves once `count` requests matching `filter` have arrived; rejects after `timeoutMs`. */
  waitFor(count: number, filter?: (request: ReceivedRequest) => boolean, timeoutMs?: number): Promise<ReceivedRequest[]>;
  close(): Promise<void>;
}

/** A real node:http webhook receiver on 127.0.0.1 and a random port, for behaviour tests. */
export async function startReceiver(responder: Responder = () => ({ status: 204 })): Promise<WebhookReceiver> {
  let respond = responder;
  const requests: ReceivedRequest[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request: ReceivedRequest = {
        method: incoming.method ?? '',
        path: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks),
        receivedAt: Date.now(),
      };
      requests.push(request);
      const reply = respond(request, requests.length - 1);
      for (const wake of [...waiters]) wake();
      if ('hang' in reply) return;
      response.writeHead(reply.status, reply.headers).end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    respond: (next) => {
      respond = next;
    },
    waitFor: (count, filter = () => true, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = (): boolean => {
          const matching = requests.filter(filter);
          if (matching.length < count) return false;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(matching);
          return true;
        };
        const wake = (): void => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`expected ${count} matching requests within ${timeoutMs} ms, got ${requests.filter(filter).length}`));
        }, timeoutMs);
        waiters.add(wake);
        check();
      }),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Polls `read` until `done` accepts its value; for state written a moment after an event the test saw. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
