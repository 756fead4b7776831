import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** One request a receiver got, whole. */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  /** The body (empty when the receiver was started with `keepBodies: false`). */
  readonly body: Buffer;
  /** `x-service-event-id`, `x-service-delivery` and `x-service-event`, or ''. */
  readonly eventId: string;
  readonly deliveryId: string;
  readonly eventType: string;
  /** Date.now() and performance.now() when the request had fully arrived. */
  readonly receivedAt: number;
  readonly at: number;
}

/** How to answer: a status with headers and body, or never (`hang`, to test timeouts). */
export type Reply = { status: number; headers?: Record<string, string>; body?: string | Buffer } | { hang: true };
export type Responder = (request: ReceivedRequest, index: number) => Reply;

export interface ReceiverOptions {
  /** How requests are answered (default: 204 at once). */
  readonly respond?: Responder;
  /** Keep request bodies (default true; the bench turns it off for 20,000 deliveries). */
  readonly keepBodies?: boolean;
}

/**
 * A real node:http webhook receiver on 127.0.0.1 and a random port, used by the behaviour
 * tests, the CLI tests, the reliability scenarios and the bench: every request is recorded,
 * and callers wait for requests instead of sleeping.
 */
export interface WebhookReceiver {
  /** `http://127.0.0.1:PORT`. */
  readonly url: string;
  readonly port: number;
  /** Every request, in arrival order. */
  readonly requests: ReceivedRequest[];
  /** Distinct event ids seen. */
  readonly eventIds: Set<string>;
  /** Replaces how requests are answered. */
  respond(responder: Responder): void;
  /** Resolves once `count` requests matching `filter` have arrived; rejects after `timeoutMs`. */
  waitFor(count: number, filter?: (request: ReceivedRequest) => boolean, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** The next request not handed out by `next()` yet, waiting for it if needed. */
  next(timeoutMs?: number): Promise<ReceivedRequest>;
  /** Resolves once every id in `ids` was seen, or rejects after `timeoutMs` naming how many are missing. */
  waitForEvents(ids: Iterable<string>, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

const header = (headers: IncomingHttpHeaders, name: string): string => {
  const value = headers[name];
  return typeof value === 'string' ? value : '';
};

export async function startReceiver(options: ReceiverOptions | Responder = {}): Promise<WebhookReceiver> {
  const settings: ReceiverOptions = typeof options === 'function' ? { respond: options } : options;
  let respond: Responder = settings.respond ?? (() => ({ status: 204 }));
  const keepBodies = settings.keepBodies ?? true;
  const requests: ReceivedRequest[] = [];
  const eventIds = new Set<string>();
  const wakers = new Set<() => void>();
  let handedOut = 0;
  const server: Server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => {
      if (keepBodies) chunks.push(chunk);
    });
    incoming.on('end', () => {
      const request: ReceivedRequest = {
        method: incoming.method ?? '',
        path: incoming.url ?? '',
        headers: incoming.headers,
        body: Buffer.concat(chunks),
        eventId: header(incoming.headers, 'x-service-event-id'),
        deliveryId: header(incoming.headers, 'x-service-delivery'),
        eventType: header(incoming.headers, 'x-service-event'),
        receivedAt: Date.now(),
        at: performance.now(),
      };
      requests.push(request);
      if (request.eventId !== '') eventIds.add(request.eventId);
      const reply = respond(request, requests.length - 1);
      for (const wake of [...wakers]) wake();
      if ('hang' in reply) return;
      response.writeHead(reply.status, reply.headers).end(reply.body);
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const waitUntil = <T>(check: () => T | undefined, timeoutMs: number, describe: () => string): Promise<T> =>
    new Promise((resolve, reject) => {
      const now = check();
      if (now !== undefined) return resolve(now);
      const timer = setTimeout(() => {
        wakers.delete(wake);
        reject(new Error(describe()));
      }, timeoutMs);
      const wake = (): void => {
        const value = check();
        if (value === undefined) return;
        clearTimeout(timer);
        wakers.delete(wake);
        resolve(value);
      };
      wakers.add(wake);
    });

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    eventIds,
    respond: (next) => {
      respond = next;
    },
    // Each arrival looks only at the requests since the last look: waiting for 20,000
    // deliveries must not cost 20,000 scans of everything received (the bench).
    waitFor: (count, filter = () => true, timeoutMs = 10_000) => {
      const matching: ReceivedRequest[] = [];
      let looked = 0;
      const look = (): ReceivedRequest[] => {
        for (; looked < requests.length; looked += 1) if (filter(requests[looked]!)) matching.push(requests[looked]!);
        return matching;
      };
      return waitUntil(() => (look().length >= count ? [...matching] : undefined), timeoutMs, () => `expected ${count} matching requests within ${timeoutMs} ms, got ${look().length}`);
    },
    next: async (timeoutMs = 10_000) => {
      const index = handedOut++;
      return waitUntil(() => requests[index], timeoutMs, () => `expected request number ${index + 1} within ${timeoutMs} ms, got ${requests.length}`);
    },
    waitForEvents: async (ids, timeoutMs) => {
      const pending = new Set(ids);
      const total = pending.size;
      let looked = 0;
      const missing = (): number => {
        for (; looked < requests.length; looked += 1) pending.delete(requests[looked]!.eventId);
        return pending.size;
      };
      await waitUntil(() => (missing() === 0 ? true : undefined), timeoutMs, () => `${missing()} of ${total} events were not delivered within ${timeoutMs} ms`);
    },
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
