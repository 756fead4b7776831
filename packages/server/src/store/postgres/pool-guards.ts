import type pg from 'pg';

/**
 * What every pooled connection needs to ride through a server restart or a failover:
 *
 * - An `error` listener for its whole life. node-postgres emits `error` on a client whose
 *   connection the server closes (57P01 on a restart); the pool listens only while the
 *   client is idle, so one checked out at that moment would take the process down.
 *   The query in flight fails on its own and the pool drops the client on release.
 * - A client whose query ran past `query_timeout` (a server that stopped answering) is
 *   closed, so that it is dropped rather than reused with its socket still waiting.
 */
export function guardPoolClients(pool: pg.Pool, onError: (error: Error) => void): void {
  pool.on('connect', (client) => {
    client.on('error', onError);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const result = query(...args);
      if (result instanceof Promise) {
        result.catch((error: unknown) => {
          if ((error as Error | null)?.message === 'Query read timeout') closeSocket(client);
        });
      }
      return result;
    };
  });
}

function closeSocket(client: pg.PoolClient): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}
