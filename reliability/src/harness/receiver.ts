import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Arrival {
  readonly eventId: string;
  readonly deliveryId: string;
  readonly eventType: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  /** performance.now() when the request had fully arrived. */
  readonly at: number;
}

/** How the receiver answers; `redirect` sends a 302 to that location. */
export type ReceiverReply = { status: number; location?: string };

export interface Receiver {
  readonly url: string;
  readonly port: number;
  /** Every request, in arrival order. */
  readonly arrivals: Arrival[];
  /** Distinct event ids seen. */
  readonly eventIds: Set<string>;
  /** Resolves once `count` requests in all have arrived, or rejects after `timeoutMs`. */
  waitForArrivals(count: number, timeoutMs: number): Promise<void>;
  /** Resolves once every id in `ids` was seen, or rejects after `timeoutMs` naming how many are missing. */
  waitForEvents(ids: Iterable<string>, timeoutMs: number): Promise<void>;
  answer(reply: (arrival: Arrival) => ReceiverReply): void;
  close(): Promise<void>;
}

/**
 * A webhook receiver on 127.0.0.1 that answers at once (204 by default) and records the
 * event id, delivery id and arrival time of every request.
 */
export async function startReceiver(options: { keepBodies?: boolean } = {}): Promise<Receiver> {
  const arrivals: Arrival[] = [];
  const eventIds = new Set<string>();
  let reply: (arrival: Arrival) => ReceiverReply = () => ({ status: 204 });
  const wakers = new Set<() => void>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => {
      if (options.keepBodies) chunks.push(chunk);
    });
    request.on('end', () => {
      const arrival: Arrival = {
        eventId: String(request.headers['x-service-event-id'] ?? ''),
        deliveryId: String(request.headers['x-service-delivery'] ?? ''),
        eventType: String(request.headers['x-service-event'] ?? ''),
        headers: request.headers,
        body: Buffer.concat(chunks),
        at: performance.now(),
      };
      arrivals.push(arrival);
      eventIds.add(arrival.eventId);
      const answer = reply(arrival);
      response.writeHead(answer.status, answer.location ? { location: answer.location } : {}).end();
      for (const wake of [...wakers]) wake();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const waitUntil = (done: () => boolean, timeoutMs: number, describe: () => string): Promise<void> =>
    new Promise((resolve, reject) => {
      if (done()) return resolve();
      const timer = setTimeout(() => {
        wakers.delete(wake);
        reject(new Error(describe()));
      }, timeoutMs);
      const wake = (): void => {
        if (!done()) return;
        clearTimeout(timer);
        wakers.delete(wake);
        resolve();
      };
      wakers.add(wake);
    });

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    arrivals,
    eventIds,
    waitForArrivals: (count, timeoutMs) =>
      waitUntil(() => arrivals.length >= count, timeoutMs, () => `expected ${count} deliveries within ${timeoutMs} ms, got ${arrivals.length}`),
    waitForEvents: (ids, timeoutMs) => {
      const wanted = [...ids];
      const missing = (): number => wanted.filter((id) => !eventIds.has(id)).length;
      return waitUntil(() => missing() === 0, timeoutMs, () => `${missing()} of ${wanted.length} events were not delivered within ${timeoutMs} ms`);
    },
    answer: (next) => {
      reply = next;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
