import { request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { readdir } from 'node:fs/promises';
import { createForm } from '@svc/testkit';
import type { ScenarioResult } from '../harness/report.js';
import { withScenario, type ScenarioOptions } from '../harness/scenario.js';

export interface ConnectionFloodOptions extends ScenarioOptions {
  /** Connections the attacker opens from 127.0.0.1, far more than its limit. */
  readonly connections: number;
  /** Submissions the honest client (127.0.0.2) posts meanwhile, one at a time. */
  readonly submissions: number;
}

const perClient = 64;

/**
 * Connection flood: one address opens thousands of connections and sends nothing, or
 * headers and bodies one byte at a time (half-open, slow headers, slow body), while an
 * honest client on another address posts submissions. Every honest post must be answered
 * 200; the server must hold no more than its per-client limit of the attacker's
 * connections (open file descriptors counted in /proc) and close the slow ones within the
 * headers and request timeouts. Without the limits, the flood takes every descriptor.
 */
export function runConnectionFloodScenario(options: ConnectionFloodOptions): Promise<ScenarioResult> {
  return withScenario({ name: 'connection-flood', backend: options.backend, log: options.log }, async ({ store, problems, log, startServer, stopServers, defer }) => {
    log(`connection flood on ${options.backend}: ${options.connections} connections from one address, ${options.submissions} honest posts`);
    const form = await createForm(store, { rateLimit: { max: 1_000_000, windowSeconds: 3_600 } });
    const server = await startServer({ args: ['--host', '127.0.0.1', '--max-connections-per-client', String(perClient), '--headers-timeout', '2s', '--request-timeout', '4s'] });
    const flood: Socket[] = [];
    defer(() => {
      for (const socket of flood) socket.destroy();
    });
    const { port } = new URL(server.url);
    const baseline = await openDescriptors(server.pid);

    let closedByServer = 0;
    const opened = Array.from({ length: options.connections }, (_, index) =>
      new Promise<void>((resolve) => {
        const socket = connect({ host: '127.0.0.1', port: Number(port) });
        flood.push(socket);
        socket.on('error', () => undefined);
        // Read what the server answers (a 408), so that its closing the connection is seen.
        socket.resume();
        socket.once('close', () => {
          closedByServer += 1;
          resolve();
        });
        socket.once('connect', () => {
          // A third send nothing, a third send headers slowly, a third a body slowly.
          if (index % 3 === 1) socket.write(`POST /api/f/${form.endpointId} HTTP/1.1\r\nhost: x\r\n`);
          if (index % 3 === 2) socket.write(`POST /api/f/${form.endpointId} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"a":`);
        });
      }),
    );

    let answered = 0;
    let peakDescriptors = 0;
    for (let n = 0; n < options.submissions; n++) {
      const status = await honestPost(Number(port), form.endpointId, n);
      if (status === 200) answered += 1;
      else problems.add(`an honest post from another address was answered ${status}`, 'honest');
      if (n % 10 === 0) peakDescriptors = Math.max(peakDescriptors, (await openDescriptors(server.pid)) - baseline);
    }
    // Every flood connection ends: refused on arrival, or closed at its timeout.
    const allClosed = await Promise.race([Promise.all(opened).then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 15_000))]);
    if (!allClosed) problems.add(`${options.connections - closedByServer} flood connections were still open 15 s later (timeouts 2 s / 4 s)`);
    if (peakDescriptors > perClient + 32) problems.add(`the server held ${peakDescriptors} more descriptors during the flood (limit ${perClient} per client)`);
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    const refused = Number(/svc_connections_refused_total\{limit="per_client"\} (\d+)/.exec(metrics)?.[1] ?? 0);
    log(`  ${answered}/${options.submissions} honest posts answered 200; ${refused} flood connections refused on arrival; at most ${peakDescriptors} extra descriptors`);
    await stopServers();
    return { floodConnections: options.connections, refusedOnArrival: refused, honestAnswered: answered, peakExtraDescriptors: peakDescriptors };
  });
}

/** A post from 127.0.0.2: another client, whom the flood must not touch. */
function honestPost(port: number, endpointId: string, n: number): Promise<number> {
  return new Promise((resolve) => {
    const body = JSON.stringify({ n, message: 'honest' });
    const request = httpRequest(
      { host: '127.0.0.1', port, localAddress: '127.0.0.2', method: 'POST', path: `/api/f/${endpointId}`, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' }, timeout: 10_000 },
      (response) => {
        response.resume();
        response.once('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.once('timeout', () => request.destroy());
    request.once('error', () => resolve(0));
    request.end(body);
  });
}

async function openDescriptors(pid: number): Promise<number> {
  return (await readdir(`/proc/${pid}/fd`).catch(() => [])).length;
}
