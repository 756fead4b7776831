import { connect } from 'node:net';

/** What came back for one raw request. */
export type RawOutcome =
  | { readonly kind: 'answer'; readonly status: number; readonly headers: Readonly<Record<string, string[]>>; readonly body: Buffer }
  /** The connection ended without a complete answer. */
  | { readonly kind: 'closed'; readonly received: number; readonly error: string | null }
  | { readonly kind: 'timeout' };

export interface RawRequest {
  /** The request line and header lines, without the blank line that ends them. */
  readonly head: string | Buffer;
  readonly body?: Buffer;
}

const headRequest = (head: string | Buffer): boolean => (typeof head === 'string' ? head : head.subarray(0, 5).toString('latin1')).startsWith('HEAD ');

/**
 * Sends bytes exactly as given over a fresh TCP connection (so malformed requests that
 * fetch would refuse to send reach the server as they are) and reads the first answer:
 * status, headers, and a body framed by content-length or chunked encoding.
 */
export function sendRaw(port: number, request: RawRequest, timeoutMs = 15_000): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    const noBody = headRequest(request.head);
    let received = 0;
    let settled = false;
    const finish = (outcome: RawOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => finish(tryParse(Buffer.concat(chunks), false, noBody) ?? { kind: 'timeout' }), timeoutMs);
    socket.on('connect', () => {
      const head = typeof request.head === 'string' ? Buffer.from(request.head, 'latin1') : request.head;
      socket.write(Buffer.concat([head, Buffer.from('\r\n\r\n'), request.body ?? Buffer.alloc(0)]));
    });
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
      const parsed = tryParse(Buffer.concat(chunks), false, noBody);
      if (parsed) finish(parsed);
    });
    socket.on('error', (error) => finish(tryParse(Buffer.concat(chunks), false, noBody) ?? { kind: 'closed', received, error: (error as NodeJS.ErrnoException).code ?? error.message }));
    socket.on('end', () => finish(tryParse(Buffer.concat(chunks), true, noBody) ?? { kind: 'closed', received, error: null }));
  });
}

/**
 * Sends bytes exactly as given over a fresh TCP connection and returns everything the
 * server wrote until it closed the connection (every answer to pipelined requests), as latin1.
 */
export function exchangeRaw(port: number, bytes: string | Buffer, timeoutMs = 10_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no end of answer within ${timeoutMs} ms; got ${JSON.stringify(Buffer.concat(chunks).toString('latin1'))}`));
    }, timeoutMs);
    socket.on('connect', () => socket.write(bytes));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
  });
}

/** The first complete answer in `data`, or null while it is incomplete. */
function tryParse(data: Buffer, ended: boolean, noBody: boolean): RawOutcome | null {
  const end = data.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const lines = data.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '');
  if (!status) return { kind: 'closed', received: data.length, error: `not an HTTP answer: ${JSON.stringify(lines[0]?.slice(0, 80))}` };
  // An interim answer (100 Continue) comes before the real one.
  if (/^1\d\d$/.test(status[1]!) && status[1] !== '101') return tryParse(data.subarray(end + 4), ended, noBody);
  const headers: Record<string, string[]> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    (headers[name] ??= []).push(line.slice(colon + 1).trim());
  }
  const rest = data.subarray(end + 4);
  if (noBody) return { kind: 'answer', status: Number(status[1]), headers, body: Buffer.alloc(0) };
  const length = headers['content-length']?.[0];
  if (length !== undefined) {
    const size = Number(length);
    if (rest.length < size) return null;
    return { kind: 'answer', status: Number(status[1]), headers, body: rest.subarray(0, size) };
  }
  if (headers['transfer-encoding']?.some((value) => /chunked/i.test(value))) {
    const body = dechunk(rest);
    return body === null ? null : { kind: 'answer', status: Number(status[1]), headers, body };
  }
  const statusCode = Number(status[1]);
  if (statusCode === 204 || statusCode === 304) return { kind: 'answer', status: statusCode, headers, body: Buffer.alloc(0) };
  return ended ? { kind: 'answer', status: statusCode, headers, body: rest } : null;
}

function dechunk(data: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf('\r\n', at);
    if (lineEnd < 0) return null;
    const size = parseInt(data.subarray(at, lineEnd).toString('latin1'), 16);
    if (Number.isNaN(size)) return Buffer.concat(parts);
    if (size === 0) return Buffer.concat(parts);
    if (data.length < lineEnd + 2 + size + 2) return null;
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
