import { beforeAll, describe, expect, it } from 'vitest';
import { useBackendSuite } from '@svc/testkit/vitest';
import { createForm, exchangeRaw, type FormFixture, selectBackend } from '@svc/testkit';

const backend = await selectBackend();

/** `exchangeRaw` with the port of a server address. */
const exchangeAt = (url: string, bytes: string | Buffer): Promise<string> => exchangeRaw(Number(new URL(url).port), bytes);

/** Status and JSON body of each answer in `text`, in order. */
function answers(text: string): { status: number; body: unknown }[] {
  const found: { status: number; body: unknown }[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    const head = rest.slice(0, end);
    const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
    const body = rest.slice(end + 4, end + 4 + length);
    found.push({ status: Number(head.slice(9, 12)), body: body === '' ? undefined : JSON.parse(body) });
    rest = rest.slice(end + 4 + length);
  }
  return found;
}

// Regressions found by the bad-input fuzzer (reliability/src/scenarios/bad-input.ts): requests
// refused before any route ran got Fastify's own bodies, an undocumented status, or no answer.
describe.runIf(backend.available)(`requests refused before routing on ${backend.name}`, () => {
  const suite = useBackendSuite();
  let form: FormFixture;

  beforeAll(async () => {
    form = await createForm(suite.store);
  });

  const post = (extraHeaders: string, body = '{"a":1}', path = `/api/f/${form.endpointId}`) =>
    `POST ${path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\ncontent-type: application/json\r\n${extraHeaders}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  const stored = () => suite.store.db.selectFrom('submissions').select('id').where('form_id', '=', form.formId).execute();

  it.each([
    ['a CR inside a header value', 'idempotency-key: a\rx-injected: 1\r\n'],
    ['a NUL inside a header value', 'idempotency-key: a\u0000b\r\n'],
    ['content-length and transfer-encoding together', 'transfer-encoding: chunked\r\n'],
    ['an invalid content-length', 'content-length: -1\r\n'],
  ])('answers 400 invalid_body for %s', async (_name, header) => {
    const [answer, ...more] = answers(await exchangeAt(suite.server.url, post(header)));
    expect(answer).toEqual({ status: 400, body: { ok: false, error: 'invalid_body' } });
    expect(more).toEqual([]);
  });

  it('answers 400 invalid_body for malformed chunks', async () => {
    const text = `POST /api/f/${form.endpointId} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n{"a":1}\r\n0\r\n\r\n`;
    expect(answers(await exchangeAt(suite.server.url, text))).toEqual([{ status: 400, body: { ok: false, error: 'invalid_body' } }]);
  });

  it('answers 413 payload_too_large for headers over the limit', async () => {
    expect(answers(await exchangeAt(suite.server.url, post(`x-big: ${'b'.repeat(20_000)}\r\n`)))).toEqual([{ status: 413, body: { ok: false, error: 'payload_too_large' } }]);
  });

  it('answers 404 not_found for a path that cannot be decoded or an id longer than any', async () => {
    for (const method of ['POST', 'PROPFIND']) {
      const text = `${method} /api/f/%zz HTTP/1.1\r\nhost: x\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`;
      expect(answers(await exchangeAt(suite.server.url, text)), method).toEqual([{ status: 404, body: { ok: false, error: 'not_found' } }]);
    }
    expect(answers(await exchangeAt(suite.server.url, post('', '{}', `/api/f/${'x'.repeat(250)}`)))).toEqual([{ status: 404, body: { ok: false, error: 'not_found' } }]);
  });

  it('answers 404 not_found for endpoint ids with bytes no id has, and 400 invalid_body for NUL (PostgreSQL refuses it in text)', async () => {
    for (const id of [`${form.endpointId}%C3%A9`, `${form.endpointId}%20`]) {
      expect(answers(await exchangeAt(suite.server.url, post('', '{}', `/api/f/${id}`))), id).toEqual([{ status: 404, body: { ok: false, error: 'not_found', message: expect.stringContaining('no form has the endpoint id') } }]);
    }
    for (const id of [`${form.endpointId}%00`, '%00']) {
      expect(answers(await exchangeAt(suite.server.url, post('', '{}', `/api/f/${id}`))), id).toEqual([{ status: 400, body: { ok: false, error: 'invalid_body', message: expect.any(String) } }]);
    }
  });

  it('answers CONNECT with 405 method_not_allowed instead of closing the connection', async () => {
    const text = `CONNECT /api/f/${form.endpointId} HTTP/1.1\r\nhost: x\r\n\r\n`;
    expect(answers(await exchangeAt(suite.server.url, text))).toEqual([{ status: 405, body: { ok: false, error: 'method_not_allowed' } }]);
  });

  it('handles a request with an unknown expectation instead of answering 417', async () => {
    const [answer] = answers(await exchangeAt(suite.server.url, post('expect: something-else\r\n')));
    expect(answer).toEqual({ status: 200, body: { ok: true, id: expect.stringMatching(/^sub_/) } });
  });

  it('answers a request before refusing the malformed bytes pipelined after it', async () => {
    const before = (await stored()).length;
    const valid = post('').replace('connection: close\r\n', '');
    const found = answers(await exchangeAt(suite.server.url, `${valid}GARBAGE \u0001\r\n\r\n`));
    expect(found).toEqual([
      { status: 200, body: { ok: true, id: expect.stringMatching(/^sub_/) } },
      { status: 400, body: { ok: false, error: 'invalid_body' } },
    ]);
    expect(await stored()).toHaveLength(before + 1);
  });

  it('refuses a multipart request without a body with 400 invalid_body and stores nothing', async () => {
    const before = (await stored()).length;
    const head = `POST /api/f/${form.endpointId} HTTP/1.1\r\nhost: x\r\nconnection: close\r\ncontent-type: multipart/form-data; boundary=abc\r\n`;
    for (const framing of ['content-length: 0\r\n\r\n', 'transfer-encoding: chunked\r\n\r\n0\r\n\r\n', '\r\n']) {
      expect(answers(await exchangeAt(suite.server.url, head + framing)), framing).toEqual([{ status: 400, body: { ok: false, error: 'invalid_body', message: 'the multipart body is empty' } }]);
    }
    // The closing delimiter alone is an empty form, as a browser sends it.
    const empty = answers(await exchangeAt(suite.server.url, `${head}content-length: 9\r\n\r\n--abc--\r\n`));
    expect(empty).toEqual([{ status: 200, body: { ok: true, id: expect.stringMatching(/^sub_/) } }]);
    expect(await stored()).toHaveLength(before + 1);
  });
});
