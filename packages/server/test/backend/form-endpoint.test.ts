import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useBackendSuite } from '@svc/testkit/vitest';
import { createForm, type FormFixture, postJson, postRaw, request, selectBackend, } from '@svc/testkit';

const backend = await selectBackend();

describe.runIf(backend.available)(`form endpoint on ${backend.name}`, () => {
  const suite = useBackendSuite({ args: ['--trust-proxy', '--max-file-size', '64KiB', '--max-files', '3', '--max-fields', '20', '--max-multipart-body', '150KiB'] });

  const formUrl = (form: FormFixture) => `${suite.server.url}/api/f/${form.endpointId}`;
  const submissions = (form: FormFixture) => suite.store.db.selectFrom('submissions').selectAll().where('form_id', '=', form.formId).execute();
  const events = (form: FormFixture) => suite.store.db.selectFrom('events').selectAll().where('project_id', '=', form.projectId).execute();

  it('accepts a JSON submission and stores it with its form.submission.created event', async () => {
    const form = await createForm(suite.store, { slug: 'contact', name: 'Contact' });
    const answer = await postJson(formUrl(form), { name: 'Ada', email: 'ada@example.com', message: 'Hello' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ok: true, id: expect.stringMatching(/^sub_/) });
    const id = (answer.body as { id: string }).id;

    const [row] = await submissions(form);
    expect(row).toMatchObject({ id, state: 'inbox', idempotency_key: null });
    expect(JSON.parse(row!.fields)).toEqual({ name: 'Ada', email: 'ada@example.com', message: 'Hello' });

    const [event] = await events(form);
    expect(event!.type).toBe('form.submission.created');
    const payload = JSON.parse(event!.payload);
    expect(payload).toMatchObject({
      id: event!.id,
      type: 'form.submission.created',
      workspace: form.workspace,
      project: form.project,
      data: {
        form: { id: form.endpointId, slug: 'contact', name: 'Contact' },
        submission: { id, fields: { name: 'Ada', email: 'ada@example.com', message: 'Hello' }, files: [] },
      },
    });
    expect(new Date(payload.createdAt).toISOString()).toBe(payload.createdAt);
  });

  it('routes a honeypot submission to spam silently, with an answer shaped like an accepted one', async () => {
    const form = await createForm(suite.store);
    const accepted = await postJson(formUrl(form), { email: 'a@example.com' });
    const spam = await postJson(formUrl(form), { email: 'b@example.com' }, { 'x-service-honeypot': '' });
    expect(spam.status).toBe(200);
    expect(spam.body).toEqual({ ok: true, id: expect.stringMatching(/^sub_/) });
    expect([...spam.headers.keys()].sort()).toEqual([...accepted.headers.keys()].sort());

    const rows = await submissions(form);
    expect(rows.find((row) => row.id === (spam.body as { id: string }).id)?.state).toBe('spam');
    const types = (await events(form)).map((event) => event.type).sort();
    expect(types).toEqual(['form.submission.created', 'form.submission.spam']);
  });

  it('returns the original submission for a repeated idempotency key, even with another body', async () => {
    const form = await createForm(suite.store);
    const key = crypto.randomUUID();
    const first = await postJson(formUrl(form), { message: 'one' }, { 'idempotency-key': key });
    const second = await postJson(formUrl(form), { message: 'two' }, { 'idempotency-key': key });
    const invalid = await postJson(formUrl(form), { email: 'not an address' }, { 'idempotency-key': key });
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    for (const replay of [second, invalid]) {
      expect(replay.status).toBe(200);
      expect(replay.body).toEqual(first.body);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
    }
    expect(await submissions(form)).toHaveLength(1);
    expect(await events(form)).toHaveLength(1);

    const otherForm = await createForm(suite.store);
    const elsewhere = await postJson(formUrl(otherForm), { message: 'one' }, { 'idempotency-key': key });
    expect((elsewhere.body as { id: string }).id).not.toBe((first.body as { id: string }).id);
  });

  it('makes one record and one event from 20 concurrent requests with one idempotency key', async () => {
    const form = await createForm(suite.store);
    const key = crypto.randomUUID();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => postJson(formUrl(form), { attempt: i }, { 'idempotency-key': key })));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(new Set(answers.map((answer) => (answer.body as { id: string }).id)).size).toBe(1);
    expect(answers.filter((answer) => answer.headers.get('idempotent-replayed') === 'true')).toHaveLength(19);
    expect(await submissions(form)).toHaveLength(1);
    expect(await events(form)).toHaveLength(1);
  });

  it('refuses an empty idempotency key or one longer than 255 characters, and accepts one of 255', async () => {
    const form = await createForm(suite.store);
    const empty = await postRaw(formUrl(form), '{}', { 'content-type': 'application/json', 'idempotency-key': '' });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ ok: false, error: 'invalid_idempotency_key', message: 'idempotency-key must be 1 to 255 characters' });
    const tooLong = await postJson(formUrl(form), { a: 1 }, { 'idempotency-key': 'k'.repeat(256) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({ ok: false, error: 'invalid_idempotency_key', message: 'idempotency-key must be 1 to 255 characters' });
    const longest = await postJson(formUrl(form), { a: 1 }, { 'idempotency-key': 'k'.repeat(255) });
    expect(longest.status).toBe(200);
  });

  it('answers 422 with one entry per invalid field for a malformed email, and stores nothing', async () => {
    const form = await createForm(suite.store);
    for (const email of ['not-an-email', '', 'a@b', 42, ['ok@example.com', 'nope']]) {
      const answer = await postJson(formUrl(form), { name: 'x', email });
      expect(answer.status, JSON.stringify(email)).toBe(422);
      expect(answer.body).toEqual({ ok: false, errors: { email: 'must be a valid email address' }, message: 'email must be a valid email address' });
      expect(answer.headers.get('ratelimit-policy')).toBe('"form";q=30;w=300');
    }
    expect(await submissions(form)).toHaveLength(0);
    expect(await events(form)).toHaveLength(0);
  });

  it('answers 404 naming the endpoint id it does not know, and 404 for the planned /v1 API', async () => {
    const unknown = await postJson(`${suite.server.url}/api/f/doesnotexist`, { a: 1 });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ ok: false, error: 'not_found', message: 'no form has the endpoint id "doesnotexist": check the form\'s address (svc forms list shows each form\'s URL)' });
    for (const [method, path] of [['GET', '/v1/projects'], ['POST', '/v1/projects'], ['GET', '/v1/requests'], ['GET', '/v1/audit-log'], ['POST', '/v1/projects/x/promote']] as const) {
      const answer = await request(`${suite.server.url}${path}`, { method, ...(method === 'POST' ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}) });
      expect(answer.status, path).toBe(404);
      expect(answer.body).toEqual({ ok: false, error: 'not_found' });
    }
  });

  it('answers 415 for content types other than JSON, multipart and urlencoded, saying which it takes', async () => {
    const form = await createForm(suite.store);
    const types: Record<string, string>[] = [{ 'content-type': 'text/plain' }, { 'content-type': 'application/xml' }, {}];
    for (const headers of types) {
      // fetch labels a string body text/plain itself; bytes go without a content type.
      const answer = await postRaw(formUrl(form), new TextEncoder().encode('a=1'), headers);
      expect(answer.status, JSON.stringify(headers)).toBe(415);
      const sent = headers['content-type'] === undefined ? 'no content type' : `content type ${headers['content-type']}`;
      expect(answer.body).toEqual({
        ok: false,
        error: 'unsupported_media_type',
        message: `a form endpoint takes application/json, multipart/form-data or application/x-www-form-urlencoded; this request had ${sent}`,
      });
      expect(answer.headers.get('ratelimit-policy')).toBe('"form";q=30;w=300');
    }
    expect(await submissions(form)).toHaveLength(0);
  });

  it('answers 400 for malformed JSON and JSON that is not an object', async () => {
    const form = await createForm(suite.store);
    for (const body of ['{"a":', '[1,2]', '"text"', 'null', '42', '', '{"__proto__":{"x":1}}', `{"deep":${'['.repeat(100)}${']'.repeat(100)}}`]) {
      const answer = await postRaw(formUrl(form), body, { 'content-type': 'application/json' });
      expect(answer.status, body.slice(0, 20)).toBe(400);
      expect(answer.body).toEqual({ ok: false, error: 'invalid_body', message: expect.any(String) });
      expect(answer.headers.get('ratelimit')).toMatch(/^"form";r=\d+;t=\d+$/);
    }
    expect(await submissions(form)).toHaveLength(0);
  });

  it('answers 413 for a JSON body over 1 MiB and accepts one just under it', async () => {
    const form = await createForm(suite.store);
    const over = await postRaw(formUrl(form), JSON.stringify({ big: 'x'.repeat(1024 * 1024) }), { 'content-type': 'application/json' });
    expect(over.status).toBe(413);
    expect(over.body).toEqual({ ok: false, error: 'payload_too_large', message: expect.stringMatching(/^a JSON or urlencoded submission carries at most 1048576 bytes; a multipart one 153600 bytes, 3 files of 65536 bytes each, and 20 fields$/) });
    expect(over.headers.get('ratelimit-policy')).toBe('"form";q=30;w=300');
    const under = await postRaw(formUrl(form), JSON.stringify({ big: 'x'.repeat(1024 * 1024 - 20) }), { 'content-type': 'application/json' });
    expect(under.status).toBe(200);
    expect(await submissions(form)).toHaveLength(1);
  });

  it('answers 405 for other methods on the endpoint path', async () => {
    const form = await createForm(suite.store);
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      const answer = await request(formUrl(form), { method });
      expect(answer.status, method).toBe(405);
      expect(answer.body).toEqual({ ok: false, error: 'method_not_allowed', message: 'a form endpoint takes POST (and OPTIONS)' });
      expect(answer.headers.get('allow')).toBe('POST, OPTIONS');
    }
  });

  it('answers CORS preflights from any origin and exposes the rate-limit headers', async () => {
    const form = await createForm(suite.store);
    const preflight = await request(formUrl(form), {
      method: 'OPTIONS',
      headers: { origin: 'https://client.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, idempotency-key, x-service-honeypot' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    for (const header of ['content-type', 'idempotency-key', 'x-service-honeypot']) {
      expect(preflight.headers.get('access-control-allow-headers')).toContain(header);
    }
    const answer = await postJson(formUrl(form), { a: 1 }, { origin: 'https://client.example' });
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    for (const header of ['retry-after', 'ratelimit', 'ratelimit-policy']) {
      expect(answer.headers.get('access-control-expose-headers')).toContain(header);
    }
  });

  it('accepts multipart fields and files, storing each file once by its content hash', async () => {
    const form = await createForm(suite.store);
    const cv = new Uint8Array(40_000).map((_, i) => i % 251);
    const body = new FormData();
    body.append('name', 'Grace');
    body.append('email', 'grace@example.com');
    body.append('topic', 'a');
    body.append('topic', 'b');
    body.append('cv', new Blob([cv], { type: 'application/pdf' }), '../../etc/passwd\u0000.pdf');
    body.append('copy', new Blob([cv], { type: 'application/pdf' }), 'copy.pdf');
    body.append('empty', new Blob([]), '');
    const answer = await request(formUrl(form), { method: 'POST', body });
    expect(answer.status, answer.text).toBe(200);

    const [row] = await submissions(form);
    expect(JSON.parse(row!.fields)).toEqual({ name: 'Grace', email: 'grace@example.com', topic: ['a', 'b'] });
    const sha256 = createHash('sha256').update(cv).digest('hex');
    const files = JSON.parse(row!.files);
    expect(files).toEqual([
      { field: 'cv', name: 'passwd.pdf', size: cv.length, contentType: 'application/pdf', sha256 },
      { field: 'copy', name: 'copy.pdf', size: cv.length, contentType: 'application/pdf', sha256 },
    ]);
    const stored = await suite.store.files.open(sha256);
    const chunks: Buffer[] = [];
    for await (const chunk of stored!) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(Buffer.from(cv))).toBe(true);
    const [event] = await events(form);
    expect(JSON.parse(event!.payload).data.submission.files).toEqual(files);
  });

  describe('a plain HTML form\'s urlencoded post', () => {
    const urlencoded = { 'content-type': 'application/x-www-form-urlencoded' };
    const postForm = (form: FormFixture, body: string, headers: Record<string, string> = {}) => postRaw(formUrl(form), body, { ...urlencoded, ...headers });

    it('is stored like multipart without files: the same fields, a name sent twice as a list, its event', async () => {
      const form = await createForm(suite.store, { slug: 'contact', name: 'Contact' });
      const answer = await postForm(form, 'name=Ada+Lovelace&email=ada%40example.com&topic=a&topic=b&message=caf%C3%A9%0D%0Abye&_redirect=&empty=');
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body).toEqual({ ok: true, id: expect.stringMatching(/^sub_/) });
      const fields = { name: 'Ada Lovelace', email: 'ada@example.com', topic: ['a', 'b'], message: 'café\r\nbye', empty: '' };
      const [row] = await submissions(form);
      expect(row).toMatchObject({ id: (answer.body as { id: string }).id, state: 'inbox' });
      expect(JSON.parse(row!.fields)).toEqual(fields);
      expect(JSON.parse(row!.files)).toEqual([]);
      const [event] = await events(form);
      expect(JSON.parse(event!.payload)).toMatchObject({ type: 'form.submission.created', data: { submission: { fields, files: [] } } });
    });

    it('sends a filled-in honeypot field to spam and keeps neither it nor the _ instructions', async () => {
      const form = await createForm(suite.store);
      const answer = await postForm(form, 'name=Bot&x-service-honeypot=http%3A%2F%2Fspam.example&_gotcha=1');
      expect(answer.status).toBe(200);
      const [row] = await submissions(form);
      expect(row!.state).toBe('spam');
      expect(JSON.parse(row!.fields)).toEqual({ name: 'Bot' });
      expect((await events(form)).map((event) => event.type)).toEqual(['form.submission.spam']);
    });

    it('answers a repeated idempotency key with the original submission', async () => {
      const form = await createForm(suite.store);
      const key = crypto.randomUUID();
      const first = await postForm(form, 'message=one', { 'idempotency-key': key });
      const second = await postForm(form, 'message=two', { 'idempotency-key': key });
      expect(second.body).toEqual(first.body);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(await submissions(form)).toHaveLength(1);
    });

    it('checks the fields and keeps to the limits: 422 for a bad email or NUL, 413 over the fields or the body limit', async () => {
      const form = await createForm(suite.store);
      const invalid = await postForm(form, 'email=nope');
      expect([invalid.status, invalid.body]).toEqual([422, { ok: false, errors: { email: 'must be a valid email address' }, message: 'email must be a valid email address' }]);
      const nul = await postForm(form, 'name=a%00b');
      expect([nul.status, (nul.body as { errors: Record<string, string> }).errors['name']]).toEqual([422, expect.stringContaining('NUL')]);
      // The suite allows 20 fields; each pair counts, as each multipart part does.
      const manyFields = await postForm(form, Array.from({ length: 21 }, (_, i) => `topic=${i}`).join('&'));
      expect([manyFields.status, manyFields.body]).toEqual([413, { ok: false, error: 'payload_too_large', message: 'a submission has at most 20 fields' }]);
      const large = await postForm(form, `big=${'x'.repeat(1024 * 1024)}`);
      expect([large.status, (large.body as { error: string }).error]).toEqual([413, 'payload_too_large']);
      expect(await submissions(form)).toHaveLength(0);
    });

    it('answers a browser with the thank-you page, and a redirect to the success URL it asks for on the project\'s own origin', async () => {
      const form = await createForm(suite.store, { slug: 'contact', name: 'Contact' });
      const html = { accept: 'text/html,application/xhtml+xml', referer: 'https://www.client.example/contact' };
      const page = await postForm(form, 'name=Ada', html);
      expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
      expect(page.text).toContain('Your message to Contact was sent.');
      const redirected = await postForm(form, `name=Ada&_redirect=${encodeURIComponent('https://www.client.example/thanks')}`, { ...html, origin: 'https://www.client.example' });
      expect([redirected.status, redirected.headers.get('location')]).toEqual([303, 'https://www.client.example/thanks']);
      expect((await submissions(form)).map((row) => JSON.parse(row.fields) as unknown)).toEqual([{ name: 'Ada' }, { name: 'Ada' }]);
    });
  });

  it('validates the email field of multipart submissions too', async () => {
    const form = await createForm(suite.store);
    const body = new FormData();
    body.append('email', 'nope');
    const answer = await request(formUrl(form), { method: 'POST', body });
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({ ok: false, errors: { email: 'must be a valid email address' }, message: expect.any(String) });
  });

  it('answers 413 and stores nothing when a multipart submission is over a limit', async () => {
    const form = await createForm(suite.store);
    const file = (bytes: number) => new Blob([new Uint8Array(bytes).fill(7)]);
    const cases: [string, FormData][] = [];
    const bigFile = new FormData();
    bigFile.append('f', file(64 * 1024 + 1), 'big.bin');
    cases.push(['file over its size limit', bigFile]);
    const manyFiles = new FormData();
    for (let i = 0; i < 4; i++) manyFiles.append(`f${i}`, file(10), `f${i}.bin`);
    cases.push(['too many files', manyFiles]);
    const manyFields = new FormData();
    for (let i = 0; i < 21; i++) manyFields.append(`field${i}`, 'v');
    cases.push(['too many fields', manyFields]);
    const tooMuch = new FormData();
    for (let i = 0; i < 3; i++) tooMuch.append(`f${i}`, file(60 * 1024), `f${i}.bin`);
    cases.push(['over the total size', tooMuch]);
    for (const [name, body] of cases) {
      const answer = await request(formUrl(form), { method: 'POST', body });
      expect(answer.status, name).toBe(413);
      expect(answer.body, name).toEqual({ ok: false, error: 'payload_too_large', message: expect.any(String) });
    }
    expect(await submissions(form)).toHaveLength(0);
    expect(await suite.store.files.open(createHash('sha256').update(new Uint8Array(60 * 1024).fill(7)).digest('hex'))).toBeNull();
  });

  it('counts bytes outside the parts toward the multipart limit, declared or chunked, and closes the connection after the 413', async () => {
    const form = await createForm(suite.store);
    const epilogue = 'e'.repeat(200 * 1024);
    const body = `--XYZ\r\ncontent-disposition: form-data; name="a"\r\n\r\nvalue\r\n--XYZ--\r\n${epilogue}`;
    const declared = await postRaw(formUrl(form), body, { 'content-type': 'multipart/form-data; boundary=XYZ' });
    expect(declared.status).toBe(413);
    expect(declared.headers.get('connection')).toBe('close');
    const chunks = [body.slice(0, 100), body.slice(100)];
    const chunked = await request(formUrl(form), {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=XYZ' },
      body: new ReadableStream({ pull: (controller) => (chunks.length > 0 ? controller.enqueue(new TextEncoder().encode(chunks.shift())) : controller.close()) }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(chunked.body).toEqual({ ok: false, error: 'payload_too_large', message: expect.any(String) });
    expect(await submissions(form)).toHaveLength(0);
  });

  it('lets a client still sending its body read the 413: the connection closes only after the rest is read and dropped', async () => {
    const form = await createForm(suite.store, { rateLimit: { max: 100_000, windowSeconds: 60 } });
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) {
      const body = new FormData();
      for (let j = 0; j < 3; j++) body.append(`f${j}`, new Blob([new Uint8Array(60 * 1024 + i)]), 'f.bin');
      statuses.push((await request(formUrl(form), { method: 'POST', body }).catch(() => ({ status: 0 }))).status);
    }
    expect(statuses.filter((status) => status !== 413)).toEqual([]);
  });

  it('refuses field names over 100 characters with 422, in JSON and multipart', async () => {
    const form = await createForm(suite.store);
    const long = 'n'.repeat(101);
    const json = await postJson(formUrl(form), { [long]: 1, ok: 2 });
    expect(json.status).toBe(422);
    expect(json.body).toEqual({ ok: false, errors: { [`${'n'.repeat(100)}…`]: 'field names are at most 100 characters' }, message: expect.any(String) });
    for (const name of [long, 'm'.repeat(5_000)]) {
      const body = new FormData();
      body.append(name, 'v');
      const answer = await request(formUrl(form), { method: 'POST', body });
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual({ ok: false, errors: { [`${name.slice(0, 100)}…`]: 'field names are at most 100 characters' }, message: expect.any(String) });
    }
    expect((await postJson(formUrl(form), { ['n'.repeat(100)]: 1 })).status).toBe(200);
    expect(await submissions(form)).toHaveLength(1);
  });

  it('stores numbers exactly as sent, and refuses with 422 those a double would change', async () => {
    const form = await createForm(suite.store);
    const exact = '{"price":19.99,"big":9007199254740991,"tiny":5e-324,"list":[1.5,2e10]}';
    expect((await postRaw(formUrl(form), exact, { 'content-type': 'application/json' })).status).toBe(200);
    const [row] = await submissions(form);
    expect(JSON.parse(row!.fields)).toEqual(JSON.parse(exact));
    for (const [body, field] of [['{"n":1e400}', 'n'], ['{"id":9007199254740993}', 'id'], ['{"x":{"y":[0.1000000000000000055511151231257827]}}', 'x']] as const) {
      const answer = await postRaw(formUrl(form), body, { 'content-type': 'application/json' });
      expect(answer.status, body).toBe(422);
      expect(answer.body, body).toEqual({ ok: false, errors: { [field]: expect.stringMatching(/^must be a number that can be stored exactly/) }, message: expect.any(String) });
    }
    expect(await submissions(form)).toHaveLength(1);
  });

  it('answers 400 for a malformed multipart body', async () => {
    const form = await createForm(suite.store);
    const broken = '--XYZ\r\ncontent-disposition: form-data; name="a"\r\n\r\nvalue';
    for (const [type, body] of [['multipart/form-data; boundary=XYZ', broken], ['multipart/form-data', 'whatever'], [`multipart/form-data; boundary=${'b'.repeat(300)}`, 'x']]) {
      const answer = await postRaw(formUrl(form), body!, { 'content-type': type! });
      expect(answer.status, type).toBe(400);
      expect(answer.body).toEqual({ ok: false, error: 'invalid_body', message: expect.any(String) });
    }
    expect(await submissions(form)).toHaveLength(0);
  });

  it('limits each client IP per endpoint to 30 requests per 5 minutes, with RateLimit headers on every answer', async () => {
    const form = await createForm(suite.store);
    const ip = { 'x-forwarded-for': '203.0.113.7, 10.0.0.1' };
    for (let i = 1; i <= 30; i++) {
      const answer = await postJson(formUrl(form), { i }, ip);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('ratelimit-policy')).toBe('"form";q=30;w=300');
      expect(answer.headers.get('ratelimit')).toMatch(new RegExp(`^"form";r=${30 - i};t=(\\d+)$`));
    }
    const limited = await postJson(formUrl(form), { i: 31 }, ip);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 300).toBe(true);
    expect(limited.body).toEqual({ ok: false, error: 'rate_limited', message: `too many submissions from this address to this form; retry in ${retryAfter} s`, retryAfter });
    expect(limited.headers.get('ratelimit')).toBe(`"form";r=0;t=${retryAfter}`);

    // Another client IP, and the same IP on another endpoint, have their own counts.
    expect((await postJson(formUrl(form), {}, { 'x-forwarded-for': '203.0.113.8' })).status).toBe(200);
    const other = await createForm(suite.store);
    expect((await postJson(formUrl(other), {}, ip)).status).toBe(200);
    expect(await submissions(form)).toHaveLength(31);
  });

  it('applies a per-form rate limit instead of the default', async () => {
    const form = await createForm(suite.store, { rateLimit: { max: 2, windowSeconds: 60 } });
    const ip = { 'x-forwarded-for': '198.51.100.1' };
    expect((await postJson(formUrl(form), {}, ip)).status).toBe(200);
    const second = await postJson(formUrl(form), {}, ip);
    expect(second.headers.get('ratelimit-policy')).toBe('"form";q=2;w=60');
    expect(second.headers.get('ratelimit')).toMatch(/^"form";r=0;t=\d+$/);
    const third = await postJson(formUrl(form), {}, ip);
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  });

  it('records the right-most x-forwarded-for entry (the one the trusted proxy added) as the client IP, truncated to its network by default', async () => {
    const form = await createForm(suite.store);
    await postJson(formUrl(form), {}, { 'x-forwarded-for': '198.51.100.9, 192.0.2.44', 'user-agent': 'test-agent/1' });
    await postJson(formUrl(form), {}, { 'x-forwarded-for': '2001:db8:85a3:8d3:1319:8a2e:370:7348' });
    const rows = await submissions(form);
    expect(rows.map((row) => row.client_ip).sort()).toEqual(['192.0.2.0', '2001:db8:85a3::']);
    expect(rows.find((row) => row.client_ip === '192.0.2.0')).toMatchObject({ user_agent: 'test-agent/1' });
  });

  it('cannot be talked out of the rate limit by writing other addresses in front of x-forwarded-for', async () => {
    const form = await createForm(suite.store, { rateLimit: { max: 3, windowSeconds: 60 } });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await postJson(formUrl(form), {}, { 'x-forwarded-for': `10.9.${i}.1, 203.0.113.60` })).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
  });

  it('counts an IPv6 client by its /64, so new addresses from one network do not escape the limit', async () => {
    const form = await createForm(suite.store, { rateLimit: { max: 2, windowSeconds: 300 } });
    const statuses: number[] = [];
    for (let i = 1; i <= 4; i++) statuses.push((await postJson(formUrl(form), {}, { 'x-forwarded-for': `2001:db8:7:7::${i.toString(16)}` })).status);
    expect(statuses).toEqual([200, 200, 429, 429]);
  });

  it('ignores x-forwarded-for entries that are not IP addresses: the proxy that passed them is the client', async () => {
    const form = await createForm(suite.store, { rateLimit: { max: 2, windowSeconds: 60 } });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await postJson(formUrl(form), {}, { 'x-forwarded-for': `not-an-ip-${i}${'x'.repeat(2_000)}` })).status);
    expect(statuses).toEqual([200, 200, 429, 429]);
    const rows = await submissions(form);
    expect(rows.map((row) => row.client_ip)).toEqual(['127.0.0.0', '127.0.0.0']);
  });

  it('serves health, metrics and the service.json schema', async () => {
    const health = await request(`${suite.server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ ok: true, checks: { database: 'ok' } });

    const schema = await request(`${suite.server.url}/schema/service.json`);
    expect(schema.status).toBe(200);
    expect(schema.body).toMatchObject({ $schema: 'http://json-schema.org/draft-07/schema#' });

    const metrics = await request(`${suite.server.url}/metrics`);
    expect(metrics.text).toMatch(/svc_http_requests_total\{route="\/api\/f\/:id",method="POST",status="200"\} \d+/);
    expect(metrics.text).toMatch(/svc_http_requests_total\{route="\/api\/f\/:id",method="POST",status="429"\} \d+/);
    expect(metrics.text).toMatch(/svc_form_submissions_total\{state="inbox"\} \d+/);
    expect(metrics.text).toMatch(/svc_form_submissions_total\{state="spam"\} \d+/);
    expect(metrics.text).toMatch(/svc_http_request_duration_seconds_bucket\{le="0.005",route="\/api\/f\/:id"\} \d+/);
    expect(metrics.text).toMatch(/svc_submission_batch_size_count \d+/);
    expect(metrics.text).toMatch(/svc_submission_commit_duration_seconds_count \d+/);
  });
});
