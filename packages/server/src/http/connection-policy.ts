import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { canonicalAddress, mayBeTrustedProxy, type ProxyTrust } from './client-address.js';

/** How many connections the server holds and how long it waits on each (docs/server.md, "Limits and timeouts"). */
export interface ConnectionPolicy {
  /** Open connections in all; past it new ones are closed at once. */
  readonly maxConnections: number;
  /** Open connections from one peer address (trusted proxies excepted). */
  readonly maxConnectionsPerClient: number;
  /** From the connection (or the end of the previous request) to the end of the request's headers. */
  readonly headersTimeoutMs: number;
  /** From the connection to the end of the request's body. */
  readonly requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  readonly keepAliveTimeoutMs: number;
  /** A connection on which nothing moves for this long is closed, whatever it is doing. */
  readonly idleTimeoutMs: number;
}

export const defaultConnectionPolicy: ConnectionPolicy = {
  maxConnections: 8_192,
  maxConnectionsPerClient: 512,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 120_000,
  keepAliveTimeoutMs: 72_000,
  idleTimeoutMs: 120_000,
};

export interface ConnectionRefusals {
  refused(reason: 'total' | 'per_client'): void;
}

/** Node's options for `http.createServer`: the timeouts above, checked often enough to be meant. */
export function httpServerOptions(policy: ConnectionPolicy): { headersTimeout: number; connectionsCheckingInterval: number } {
  return {
    headersTimeout: policy.headersTimeoutMs,
    // Node looks for expired headers and requests only this often (30 s by default), which
    // would let a slow client keep a connection up to 30 s past its timeout.
    connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(policy.headersTimeoutMs / 4))),
  };
}

/**
 * Closes connections over the limits as they arrive, before any byte is read: Node drops
 * those over the total (`server.maxConnections`), this counts them per peer address.
 * Behind a trusted proxy every client shares the proxy's address, so peers the proxy trust
 * covers are held only to the total.
 */
export function installConnectionPolicy(server: Server, policy: ConnectionPolicy, trust: ProxyTrust, refusals: ConnectionRefusals): void {
  server.maxConnections = policy.maxConnections;
  server.on('drop', () => refusals.refused('total'));
  const perClient = new Map<string, number>();
  server.prependListener('connection', (socket: Socket) => {
    const address = canonicalAddress(socket.remoteAddress) ?? 'unknown';
    if (mayBeTrustedProxy(address, trust)) return;
    const current = perClient.get(address) ?? 0;
    if (current >= policy.maxConnectionsPerClient) {
      refusals.refused('per_client');
      socket.destroy();
      return;
    }
    perClient.set(address, current + 1);
    socket.once('close', () => {
      const left = (perClient.get(address) ?? 1) - 1;
      if (left <= 0) perClient.delete(address);
      else perClient.set(address, left);
    });
  });
}
