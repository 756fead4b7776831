// Regressions of the third adversarial test: NUL characters sent anonymously reached
// PostgreSQL, which refuses them in text, and the public endpoints answered 500 (and a
// screenshot stayed stored with nothing referring to it). Every public endpoint now refuses
// text a backend cannot store exactly (NUL, unpaired surrogates) with 400/422, keeping nothing.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useBackendSuite } from '@svc/testkit/vitest';
import { createForm, createWidgetProject, postRaw, request, selectBackend } from '@svc/testkit';

const backend = await selectBackend();

/** A PNG signature and bytes of its own: a screenshot whose content no other test stores. */
const uniquePng = () => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)]);
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const nul = 'before\u0000after';

describe.runIf(backend.available)(`text a backend cannot store, sent to public endpoints, on ${backend.name}`, () => {
  const suite = useBackendSuite({ args: ['--trust-proxy'] });
  let visitor = 0;
  /** A client address of its own for every post, so no test meets the rate limit. */
  const from = () => ({ 'x-forwarded-for': `198.51.100.${(visitor += 1)}` });

  describe('the form endpoint', () => {
    const submissions = async (formId: string) => suite.store.db.selectFrom('submissions').select('id').where('form_id', '=', formId).execute();

    it('answers 422 naming the field when a JSON value holds NUL, nested or not, or an unpaired surrogate', async () => {
      const form = await createForm(suite.store);
      const url = `${suite.server.url}/api/f/${form.endpointId}`;
      const cases: [string, string][] = [
        ['message', JSON.stringify({ name: 'Ada', message: nul })],
        ['tags', JSON.stringify({ tags: ['fine', nul] })],
        ['meta', JSON.stringify({ meta: { [nul]: 'a key inside a value' } })],
        ['message', '{"message":"half a pair: \\ud800"}'],
      ];
      for (const [field, body] of cases) {
        const answer = await postRaw(url, body, { 'content-type': 'application/json', ...from() });
        expect(answer.status, body).toBe(422);
        expect(answer.body, body).toEqual({ ok: false, errors: { [field]: expect.stringMatching(/NUL|surrogate/) }, message: expect.any(String) });
      }
      expect(await submissions(form.formId)).toEqual([]);
    });

    it('answers 422 when a field name holds NUL, showing the name with a replacement character', async () => {
      const form = await createForm(suite.store);
      const answer = await postRaw(`${suite.server.url}/api/f/${form.endpointId}`, JSON.stringify({ [nul]: 'x' }), { 'content-type': 'application/json', ...from() });
      expect(answer.status).toBe(422);
      expect(answer.body).toEqual({ ok: false, errors: { 'before\ufffdafter': expect.stringContaining('NUL') }, message: expect.any(String) });
      expect(await submissions(form.formId)).toEqual([]);
    });

    it('answers 422 for NUL in a multipart value or field name, keeping none of the files sent with it', async () => {
      const form = await createForm(suite.store);
      const url = `${suite.server.url}/api/f/${form.endpointId}`;
      const file = randomBytes(2048);
      const bodies: [string, FormData][] = [];
      for (const [field, value] of [['message', nul], [nul, 'a plain value']]) {
        const body = new FormData();
        body.append('cv', new Blob([file], { type: 'application/pdf' }), 'cv.pdf');
        body.append(field!, value!);
        bodies.push([field!.replace('\u0000', '\ufffd'), body]);
      }
      const fileField = new FormData();
      fileField.append(nul, new Blob([file], { type: 'application/pdf' }), 'cv.pdf');
      bodies.push(['before\ufffdafter', fileField]);
      for (const [field, body] of bodies) {
        const answer = await request(url, { method: 'POST', body, headers: from() });
        expect(answer.status, field).toBe(422);
        expect(answer.body, field).toEqual({ ok: false, errors: { [field]: expect.stringContaining('NUL') }, message: expect.any(String) });
      }
      expect(await submissions(form.formId)).toEqual([]);
      expect(await suite.store.files.open(sha256(file))).toBeNull();
    });

    it('shows a person the refused field on an error page, not a server error', async () => {
      const form = await createForm(suite.store);
      const body = new FormData();
      body.append('message', nul);
      const answer = await request(`${suite.server.url}/api/f/${form.endpointId}`, { method: 'POST', body, headers: { accept: 'text/html', ...from() } });
      expect(answer.status).toBe(422);
      expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
      expect(answer.text).toContain('message');
    });

    it('answers 400 invalid_body for NUL in the endpoint id', async () => {
      const answer = await postRaw(`${suite.server.url}/api/f/abc%00def`, '{}', { 'content-type': 'application/json', ...from() });
      expect([answer.status, answer.body]).toEqual([400, { ok: false, error: 'invalid_body', message: expect.any(String) }]);
    });
  });

  describe('the Pinpoints API', () => {
    const sample = { comment: 'The price is wrong', url: 'https://staging.example.test/pricing', environment: 'staging' };
    const send = (key: string, fields: Record<string, string>, screenshot: Buffer | null) => {
      const body = new FormData();
      for (const [name, value] of Object.entries(fields)) body.append(name, value);
      if (screenshot) body.append('screenshot', new Blob([new Uint8Array(screenshot)], { type: 'image/png' }), 'screenshot.png');
      return request(`${suite.server.url}/api/p/${key}/requests`, { method: 'POST', body, headers: from() });
    };

    it('answers 422 naming the field for NUL in comment, url, name, selector, screenshotError or any other field, keeping no row and no screenshot', async () => {
      const project = await createWidgetProject(suite.store);
      for (const field of ['comment', 'url', 'name', 'selector', 'email', 'viewport', 'environment']) {
        const screenshot = uniquePng();
        const answer = await send(project.key, { ...sample, [field]: `${sample.comment}\u0000` }, screenshot);
        expect(answer.status, field).toBe(422);
        expect(answer.body, field).toEqual({ ok: false, errors: { [field]: expect.stringContaining('NUL') } });
        expect(await suite.store.files.open(sha256(screenshot)), field).toBeNull();
      }
      const withError = await send(project.key, { ...sample, screenshotError: nul }, null);
      expect([withError.status, withError.body]).toEqual([422, { ok: false, errors: { screenshotError: expect.stringContaining('NUL') } }]);
      const screenshot = uniquePng();
      const unknownName = await send(project.key, { ...sample, [nul]: 'x' }, screenshot);
      expect([unknownName.status, unknownName.body]).toEqual([422, { ok: false, errors: { 'before\ufffdafter': expect.stringContaining('NUL') } }]);
      expect(await suite.store.files.open(sha256(screenshot))).toBeNull();
      expect(await suite.store.db.selectFrom('requests').select('id').where('project_id', '=', project.projectId).execute()).toEqual([]);
    });

    it('answers 400 invalid_body for NUL in a path parameter or a query, reading nothing', async () => {
      const project = await createWidgetProject(suite.store);
      const base = `${suite.server.url}/api/p/${project.key}`;
      for (const path of ['/requests/%00?token=x', '/requests/req_1%00?token=x', '/requests/req_1?token=%00', '/settings?host=%00', '/settings?environment=staging%00']) {
        const answer = await request(`${base}${path}`);
        expect([answer.status, answer.body], path).toEqual([400, { ok: false, error: 'invalid_body' }]);
      }
      const key = await request(`${suite.server.url}/api/p/pk_%00/settings`);
      expect([key.status, key.body]).toEqual([400, { ok: false, error: 'invalid_body' }]);
    });
  });
});
