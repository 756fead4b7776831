import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { useBackendSuite } from '@svc/testkit/vitest';
import { createForm, request, selectBackend } from '@svc/testkit';

const backend = await selectBackend();

interface HeldConnection {
  readonly socket: Socket;
  /** Everything the server wrote, once it closed the connection. */
  readonly closed: Promise<string>;
}

function open(url: string, bytes = ''): Promise<HeldConnection> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: Number(port) });
    const chunks: Buffer[] = [];
    const closed = new Promise<string>((done) => socket.on('close', () => done(Buffer.concat(chunks).toString('latin1'))));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      if (bytes) socket.write(bytes);
      resolve({ socket, closed });
    });
    socket.once('error', reject);
  });
}

// Regressions of the adversarial test: 21,000 half-open connections from one address took
// every file descriptor, and Node's default timeouts let slow clients hold them.
describe.runIf(backend.available)(`connection limits and timeouts on ${backend.name}`, () => {
  const suite = useBackendSuite({ args: ['--max-connections-per-client', '4', '--headers-timeout', '1s', '--request-timeout', '2s', '--idle-timeout', '20s'] });
  const held: HeldConnection[] = [];
  afterEach(() => {
    for (const connection of held.splice(0)) connection.socket.destroy();
  });

  it('closes connections from one address past its limit on arrival, and serves it again once they end', async () => {
    for (let i = 0; i < 4; i++) held.push(await open(suite.server.url));
    const refused = await open(suite.server.url, 'GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n');
    expect(await refused.closed).toBe('');
    const metrics = await request(`${suite.server.url}/metrics`).catch(() => null);
    expect(metrics, 'a fifth connection is refused while four are held').toBeNull();

    for (const connection of held.splice(0)) connection.socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const after = await request(`${suite.server.url}/metrics`);
    expect(after.status).toBe(200);
    expect(after.text).toMatch(/svc_connections_refused_total\{limit="per_client"\} [1-9]/);
  });

  it('answers 408 and closes a connection that sends nothing, or headers too slowly, within the headers timeout', async () => {
    const silent = await open(suite.server.url);
    const slow = await open(suite.server.url, 'POST /api/f/x HTTP/1.1\r\nhost: x\r\n');
    held.push(silent, slow);
    const answer = await slow.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('{"ok":false,"error":"request_timeout"}');
    await silent.closed;
  });

  it('answers 408 and closes a connection whose body is too slow, and stores nothing of it', async () => {
    const form = await createForm(suite.store);
    const body = JSON.stringify({ name: 'slow', padding: 'x'.repeat(200) });
    const slowBody = await open(
      suite.server.url,
      `POST /api/f/${form.endpointId} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`,
    );
    held.push(slowBody);
    const answer = await slowBody.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    const rows = await suite.store.db.selectFrom('submissions').select('id').where('form_id', '=', form.formId).execute();
    expect(rows).toHaveLength(0);
  });
});
