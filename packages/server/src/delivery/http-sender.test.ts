import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpSender } from './http-sender.js';

let server: Server;
let base: string;
let handler: (request: IncomingMessage, response: ServerResponse) => void = (_request, response) => response.end();

beforeAll(async () => {
  server = createServer((request, response) => handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** The sender's wall clock in these tests: attempts are stamped with it, whatever the real time. */
const clockAt = Date.UTC(2026, 0, 2, 3, 4, 5);
const open = (options: Partial<ConstructorParameters<typeof HttpSender>[0]> = {}) =>
  new HttpSender({ timeoutMs: 2_000, allowPrivateTargets: true, responseBodyLimitBytes: 64 * 1024, ...options }, () => clockAt);
const post = (sender: HttpSender, path = '/hook') => sender.send({ url: `${base}${path}`, headers: { 'content-type': 'application/json', 'x-test': 'yes' }, body: '{"a":1}' });

describe('HttpSender', () => {
  it('POSTs the body and headers and keeps the answer', async () => {
    const seen: { method?: string; headers?: IncomingMessage['headers']; body?: string } = {};
    handler = (request, response) => {
      let body = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        Object.assign(seen, { method: request.method, headers: request.headers, body });
        response.writeHead(202, { 'content-type': 'text/plain' }).end('thanks');
      });
    };
    const sender = open();
    const outcome = await post(sender);
    await sender.close();
    expect(seen).toMatchObject({ method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json', 'x-test': 'yes' } });
    expect(outcome).toMatchObject({ statusCode: 202, error: null, responseBody: 'thanks', retryAfter: null });
    expect(outcome.startedAt).toBe(clockAt);
  });

  it('does not follow a redirect', async () => {
    let hits = 0;
    handler = (request, response) => {
      hits += 1;
      if (request.url === '/hook') response.writeHead(307, { location: '/elsewhere' }).end();
      else response.writeHead(200).end();
    };
    const sender = open();
    const outcome = await post(sender);
    await sender.close();
    expect(hits).toBe(1);
    expect(outcome.statusCode).toBe(307);
    expect(outcome.error).toMatch(/redirects are not followed/);
  });

  it('keeps at most the body limit of a long answer', async () => {
    handler = (_request, response) => {
      response.writeHead(500);
      for (let i = 0; i < 40; i++) response.write('x'.repeat(4096));
      response.end();
    };
    const sender = open({ responseBodyLimitBytes: 10_000 });
    const outcome = await post(sender);
    await sender.close();
    expect(outcome.statusCode).toBe(500);
    expect(outcome.responseBody).toHaveLength(10_000);
  });

  it('replaces NUL characters and invalid UTF-8 in the kept body', async () => {
    handler = (_request, response) => response.writeHead(400).end(Buffer.from([0x61, 0x00, 0xff, 0x62]));
    const sender = open();
    const outcome = await post(sender);
    await sender.close();
    expect(outcome.responseBody).toBe('a\uFFFD\uFFFDb');
  });

  it('gives up on a slow receiver at the timeout', async () => {
    handler = () => undefined; // never answers
    const sender = open({ timeoutMs: 200 });
    const outcome = await post(sender);
    await sender.close();
    expect(outcome).toMatchObject({ statusCode: null, error: 'timed out after 200 ms' });
  });

  it('reports Retry-After', async () => {
    handler = (_request, response) => response.writeHead(429, { 'retry-after': '30' }).end();
    const sender = open();
    expect(await post(sender)).toMatchObject({ statusCode: 429, retryAfter: '30' });
    await sender.close();
  });

  it('reports a refused connection', async () => {
    const sender = open();
    const outcome = await sender.send({ url: 'http://127.0.0.1:1/hook', headers: {}, body: '{}' });
    await sender.close();
    expect(outcome).toMatchObject({ statusCode: null, error: 'connection refused' });
  });

  describe('without private targets', () => {
    it.each([
      ['an IP literal, before connecting', () => `${base}/hook`, /^refused: 127\.0\.0\.1 is a loopback address/],
      ['a host name, at connect time', () => `${base.replace('127.0.0.1', 'localhost')}/hook`, /^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address/],
      ['an IPv6 literal', () => 'http://[::1]:9/hook', /^refused: ::1 is a loopback address/],
      ['the metadata address', () => 'http://169.254.169.254/latest/meta-data/', /cloud metadata address/],
    ])('refuses %s', async (_name, url, error) => {
      let hits = 0;
      handler = (_request, response) => {
        hits += 1;
        response.end();
      };
      const sender = open({ allowPrivateTargets: false });
      const outcome = await sender.send({ url: url(), headers: {}, body: '{}' });
      await sender.close();
      expect(outcome.statusCode).toBeNull();
      expect(outcome.error).toMatch(error);
      expect(hits).toBe(0);
    });
  });
});
