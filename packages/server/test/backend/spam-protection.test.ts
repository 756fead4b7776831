import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { solveChallenge } from 'altcha-lib/v1';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPrincipal, createForm, eventually, newEncryptionKey, operationContext, postJson, request, selectBackend, type FormFixture } from '@svc/testkit';
import { useBackendSuite } from '@svc/testkit/vitest';
import { AltchaChallenges, altchaKey, challengeLifetimeMs } from '../../src/forms/spam/altcha-challenges.js';
import { ProjectSites } from '../../src/sites/project-sites.js';
import { captchaSecretContext } from '../../src/forms/spam/captcha-secret.js';
import type { OperationContext } from '../../src/operations/context.js';
import { updateFormSettings, type FormSettingsChange } from '../../src/operations/forms.js';
import { replaceProjectDomains } from '../../src/store/queries/domains.js';
import { parseEncryptionKey } from '../../src/secrets/encryption-key.js';

const backend = await selectBackend();

/**
 * A siteverify stub for Turnstile and hCaptcha: the token says what it answers. `pass` and
 * `fail` as the provider would; `down` cuts the connection (the provider cannot be reached).
 */
const verified: { path: string; body: URLSearchParams }[] = [];
const siteverify = createServer((incoming, answer) => {
  let text = '';
  incoming.on('data', (chunk: Buffer) => (text += chunk.toString()));
  incoming.on('end', () => {
    const body = new URLSearchParams(text);
    verified.push({ path: incoming.url ?? '', body });
    const token = body.get('response');
    if (token === 'down') return void incoming.socket.destroy();
    answer.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(token === 'pass' ? { success: true } : { success: false, 'error-codes': ['invalid-input-response'] }));
  });
});
await new Promise<void>((resolve) => siteverify.listen(0, '127.0.0.1', resolve));
const stubUrl = `http://127.0.0.1:${(siteverify.address() as AddressInfo).port}`;

const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe.runIf(backend.available)(`spam protection on ${backend.name}`, () => {
  const encryptionKey = newEncryptionKey();
  const suite = useBackendSuite({
    args: ['--turnstile-verify-url', `${stubUrl}/turnstile`, '--hcaptcha-verify-url', `${stubUrl}/hcaptcha`, '--altcha-max-number', '5000', '--challenge-rate-limit', '5/1h'],
    env: { SVC_ENCRYPTION_KEY: encryptionKey },
  });
  let context: OperationContext;
  // The server's own challenges, made here only to forge old ones: the key is the server's.
  const serverChallenges = new AltchaChallenges(altchaKey(parseEncryptionKey(encryptionKey)), 5000);

  beforeAll(() => {
    context = operationContext(suite.store, { dataDir: suite.environment.dataDir, encryptionKey: parseEncryptionKey(encryptionKey) });
  });
  afterAll(async () => {
    siteverify.closeAllConnections();
    await new Promise((resolve) => siteverify.close(resolve));
  });

  const formUrl = (form: FormFixture) => `${suite.url}/api/f/${form.endpointId}`;
  const rows = (form: FormFixture) => suite.store.db.selectFrom('submissions').selectAll().where('form_id', '=', form.formId).orderBy('id').execute();
  const events = (form: FormFixture) => suite.store.db.selectFrom('events').selectAll().where('project_id', '=', form.projectId).orderBy('id').execute();
  /** A form with these settings, set through the operation `svc forms set` calls, before its first post. */
  const protectedForm = async (settings: FormSettingsChange): Promise<FormFixture> => {
    const form = await createForm(suite.store);
    await updateFormSettings(context, adminPrincipal, { workspace: form.workspace, project: form.project, slug: form.slug, ...settings });
    return form;
  };
  /** Fetches a challenge as the widget does and solves it: the widget's base64 payload. */
  const solved = async (form: FormFixture): Promise<string> => {
    const answer = await request(`${formUrl(form)}/challenge`);
    expect(answer.status).toBe(200);
    const challenge = answer.body as { algorithm: string; challenge: string; maxnumber: number; salt: string; signature: string };
    const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber).promise;
    return Buffer.from(JSON.stringify({ ...challenge, number: solution!.number })).toString('base64');
  };
  const captchaRefused = (answer: { status: number; body: unknown }) => {
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ ok: false, errors: { captcha: expect.any(String) } });
    expect(Object.keys((answer.body as { errors: object }).errors)).toEqual(['captcha']);
  };

  describe('ALTCHA', () => {
    it('serves a v1 challenge that any page may fetch, never cached, and stores nothing for it', async () => {
      const form = await protectedForm({ captcha: 'altcha' });
      const before = await suite.store.db.selectFrom('spent_captcha_solutions').select('digest').execute();
      const answer = await request(`${formUrl(form)}/challenge`, { headers: { origin: 'https://anywhere.example' } });
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.body as object).sort()).toEqual(['algorithm', 'challenge', 'maxnumber', 'salt', 'signature']);
      expect(answer.body).toMatchObject({ algorithm: 'SHA-256', maxnumber: 5000 });
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
      expect(answer.headers.get('ratelimit-policy')).toBe('"challenge";q=5;w=3600');
      expect(await suite.store.db.selectFrom('spent_captcha_solutions').select('digest').execute()).toEqual(before);
      expect((await request(`${suite.url}/api/f/nope/challenge`)).status).toBe(404);
    });

    it('counts challenges apart from posts, with their own limit', async () => {
      const form = await protectedForm({ captcha: 'altcha' });
      const statuses = [];
      for (let n = 0; n < 6; n++) statuses.push((await request(`${formUrl(form)}/challenge`)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      // Posts are counted apart: the form still takes one.
      expect((await postJson(formUrl(form), {})).status).toBe(422);
    });

    it('answers a retry with the same idempotency key with the original submission, though its solution is spent', async () => {
      const form = await protectedForm({ captcha: 'altcha' });
      const key = crypto.randomUUID();
      const body = { email: 'ada@example.com', altcha: await solved(form) };
      const first = await postJson(formUrl(form), body, { 'idempotency-key': key });
      const retry = await postJson(formUrl(form), body, { 'idempotency-key': key });
      expect(first.status).toBe(200);
      expect(retry.status).toBe(200);
      expect(retry.body).toEqual(first.body);
      expect(retry.headers.get('idempotent-replayed')).toBe('true');
      expect(await rows(form)).toHaveLength(1);
    });

    it('accepts a solved challenge once, in JSON, multipart and urlencoded alike, never storing the solution', async () => {
      const form = await protectedForm({ captcha: 'altcha' });
      const altcha = await solved(form);
      const accepted = await postJson(formUrl(form), { email: 'ada@example.com', altcha });
      expect(accepted.status).toBe(200);
      captchaRefused(await postJson(formUrl(form), { email: 'ada@example.com', altcha }));

      const body = new FormData();
      body.append('email', 'bo@example.com');
      body.append('altcha', await solved(form));
      const multipart = await request(formUrl(form), { method: 'POST', body });
      expect(multipart.status).toBe(200);
      // The widget's payload as a JSON object, for JSON posts.
      const object = JSON.parse(Buffer.from(await solved(form), 'base64').toString('utf8')) as unknown;
      expect((await postJson(formUrl(form), { email: 'cy@example.com', altcha: object })).status).toBe(200);
      const urlencoded = await request(formUrl(form), { method: 'POST', body: new URLSearchParams({ email: 'di@example.com', altcha: await solved(form) }) });
      expect(urlencoded.status).toBe(200);

      const stored = await rows(form);
      expect(stored.map((row) => [row.state, JSON.parse(row.fields) as unknown])).toEqual([
        ['inbox', { email: 'ada@example.com' }],
        ['inbox', { email: 'bo@example.com' }],
        ['inbox', { email: 'cy@example.com' }],
        ['inbox', { email: 'di@example.com' }],
      ]);
    });

    it('refuses a post without a solution, a forged one and an expired one, storing nothing', async () => {
      const form = await protectedForm({ captcha: 'altcha' });
      captchaRefused(await postJson(formUrl(form), { email: 'ada@example.com' }));
      const payload = JSON.parse(Buffer.from(await solved(form), 'base64').toString('utf8')) as { number: number };
      const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');
      captchaRefused(await postJson(formUrl(form), { altcha: encode({ ...payload, number: payload.number + 1 }) }));
      const old = await serverChallenges.create(form.endpointId, Date.now() - challengeLifetimeMs - 60_000);
      const oldSolution = await solveChallenge(old.challenge, old.salt, old.algorithm, old.maxnumber).promise;
      captchaRefused(await postJson(formUrl(form), { altcha: encode({ ...old, number: oldSolution!.number }) }));
      // A challenge of another form does not open this one.
      const other = await protectedForm({ captcha: 'altcha' });
      captchaRefused(await postJson(formUrl(form), { altcha: await solved(other) }));
      expect(await rows(form)).toEqual([]);
      expect(await events(form)).toEqual([]);
    });

    it('tells a person without JavaScript in words, and stores nothing', async () => {
      const form = await protectedForm({ captcha: 'altcha' });
      const page = await request(formUrl(form), { method: 'POST', body: new URLSearchParams({ email: 'ada@example.com' }), headers: html });
      expect(page.status).toBe(422);
      expect(page.headers.get('content-type')).toContain('text/html');
      expect(page.text).toContain('The captcha was not solved');
      expect(page.text).toContain('A page without JavaScript cannot solve an ALTCHA or Turnstile challenge');
      const body = new FormData();
      body.append('email', 'ada@example.com');
      const multipart = await request(formUrl(form), { method: 'POST', body, headers: html });
      expect(multipart.status).toBe(422);
      expect(multipart.text).toContain('A page without JavaScript cannot solve an ALTCHA or Turnstile challenge');
      expect(await rows(form)).toEqual([]);
    });
  });

  describe('Turnstile and hCaptcha', () => {
    it('asks the provider with the stored secret: a passed token is stored, a failed one refused', async () => {
      const form = await protectedForm({ captcha: 'turnstile', captchaSecret: 'turnstile-secret' });
      expect((await postJson(formUrl(form), { email: 'ada@example.com', 'cf-turnstile-response': 'pass' })).status).toBe(200);
      expect((await request(formUrl(form), { method: 'POST', body: new URLSearchParams({ email: 'bo@example.com', 'cf-turnstile-response': 'pass' }) })).status).toBe(200);
      expect(verified.at(-1)?.path).toBe('/turnstile');
      expect(verified.at(-1)?.body.get('secret')).toBe('turnstile-secret');
      captchaRefused(await postJson(formUrl(form), { email: 'ada@example.com', 'cf-turnstile-response': 'fail' }));
      captchaRefused(await postJson(formUrl(form), { email: 'ada@example.com' }));
      const stored = await rows(form);
      expect(stored.map((row) => [row.state, JSON.parse(row.fields) as unknown])).toEqual([
        ['inbox', { email: 'ada@example.com' }],
        ['inbox', { email: 'bo@example.com' }],
      ]);
      // The secret is stored sealed, never in clear.
      const row = await suite.store.db.selectFrom('forms').select('captcha_secret').where('id', '=', form.formId).executeTakeFirstOrThrow();
      expect(row.captcha_secret).toMatch(/^enc1\./);
      expect(row.captcha_secret).not.toContain('turnstile-secret');
    });

    it('checks hCaptcha tokens at its own address', async () => {
      const form = await protectedForm({ captcha: 'hcaptcha', captchaSecret: 'hcaptcha-secret' });
      const body = new FormData();
      body.append('email', 'ada@example.com');
      body.append('h-captcha-response', 'pass');
      body.append('g-recaptcha-response', 'pass');
      expect((await request(formUrl(form), { method: 'POST', body })).status).toBe(200);
      expect(verified.at(-1)?.path).toBe('/hcaptcha');
      captchaRefused(await postJson(formUrl(form), { 'h-captcha-response': 'fail' }));
      expect((await rows(form)).map((row) => JSON.parse(row.fields) as unknown)).toEqual([{ email: 'ada@example.com' }]);
    });

    it('keeps the submission in Spam with captcha_unverified when the provider cannot be reached', async () => {
      for (const [captcha, field] of [['turnstile', 'cf-turnstile-response'], ['hcaptcha', 'h-captcha-response']] as const) {
        const form = await protectedForm({ captcha, captchaSecret: 'secret' });
        const answer = await postJson(formUrl(form), { email: 'ada@example.com', [field]: 'down' });
        expect(answer.status).toBe(200);
        const [row] = await rows(form);
        expect(row).toMatchObject({ state: 'spam', spam_reason: 'captcha_unverified' });
        const [event] = await events(form);
        expect(event!.type).toBe('form.submission.spam');
        expect(JSON.parse(event!.payload)).toMatchObject({ data: { submission: { spamReason: 'captcha_unverified', fields: { email: 'ada@example.com' } } } });
      }
    });
  });

  describe('a captcha secret that does not open', () => {
    /** The stored secret as it reads after the server's encryption key changed. */
    const breakSecret = async (form: FormFixture) => {
      const foreign = operationContext(suite.store, { dataDir: suite.environment.dataDir, encryptionKey: parseEncryptionKey(newEncryptionKey()) });
      const sealed = foreign.secrets.seal('old-secret', captchaSecretContext(form.formId));
      await suite.store.db.updateTable('forms').set({ captcha_secret: sealed }).where('id', '=', form.formId).execute();
    };

    it('keeps a Turnstile post in Spam with captcha_unverified, asking no provider, never a 500', async () => {
      const form = await protectedForm({ captcha: 'turnstile', captchaSecret: 'turnstile-secret' });
      await breakSecret(form);
      const asked = verified.length;
      const answer = await postJson(formUrl(form), { email: 'ada@example.com', 'cf-turnstile-response': 'pass' });
      expect(answer.status).toBe(200);
      expect(verified.length).toBe(asked);
      expect((await rows(form)).map((row) => [row.state, row.spam_reason])).toEqual([['spam', 'captcha_unverified']]);
    });

    it('is not opened at all for ALTCHA, which needs none', async () => {
      const form = await protectedForm({ captcha: 'hcaptcha', captchaSecret: 'hcaptcha-secret' });
      await updateFormSettings(context, adminPrincipal, { workspace: form.workspace, project: form.project, slug: form.slug, captcha: 'altcha' });
      await breakSecret(form);
      expect((await postJson(formUrl(form), { email: 'ada@example.com', altcha: await solved(form) })).status).toBe(200);
      expect((await rows(form)).map((row) => [row.state, row.spam_reason])).toEqual([['inbox', null]]);
    });
  });

  describe('links and origins', () => {
    it('sends a submission with more links than allowed to Spam, with the reason in its event', async () => {
      const form = await protectedForm({ maxLinks: 1 });
      expect((await postJson(formUrl(form), { message: 'see https://a.example' })).status).toBe(200);
      expect((await postJson(formUrl(form), { message: 'see https://a.example and www.b.example' })).status).toBe(200);
      const body = new FormData();
      body.append('message', 'http://c.example http://d.example');
      expect((await request(formUrl(form), { method: 'POST', body })).status).toBe(200);
      expect((await request(formUrl(form), { method: 'POST', body: new URLSearchParams({ message: 'www.e.example www.f.example' }) })).status).toBe(200);
      expect((await rows(form)).map((row) => [row.state, row.spam_reason])).toEqual([
        ['inbox', null],
        ['spam', 'links'],
        ['spam', 'links'],
        ['spam', 'links'],
      ]);
      const spamEvents = (await events(form)).filter((event) => event.type === 'form.submission.spam');
      expect(spamEvents.map((event) => (JSON.parse(event.payload) as { data: { submission: { spamReason?: string } } }).data.submission.spamReason)).toEqual(['links', 'links', 'links']);
    });

    it('records the honeypot as the reason', async () => {
      const form = await createForm(suite.store);
      await postJson(formUrl(form), { email: 'a@example.com' }, { 'x-service-honeypot': '1' });
      expect((await rows(form)).map((row) => [row.state, row.spam_reason])).toEqual([['spam', 'honeypot']]);
    });

    it('with project, refuses a foreign Origin with 403 and takes the project\'s domains, local hosts and scripts', async () => {
      const form = await protectedForm({ origins: 'project' });
      await suite.store.transaction((trx) => replaceProjectDomains(trx, form.projectId, [{ hostname: 'www.acme.example', environment: 'production', position: 0 }]));
      const refused = await postJson(formUrl(form), { email: 'a@example.com' }, { origin: 'https://evil.example' });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ ok: false, error: 'forbidden_origin' });
      const multipart = new FormData();
      multipart.append('email', 'a@example.com');
      expect((await request(formUrl(form), { method: 'POST', body: multipart, headers: { origin: 'https://evil.example' } })).status).toBe(403);
      expect((await request(formUrl(form), { method: 'POST', body: new URLSearchParams({ n: '0' }), headers: { origin: 'https://evil.example' } })).status).toBe(403);
      expect((await postJson(formUrl(form), { n: 1 }, { origin: 'https://www.acme.example' })).status).toBe(200);
      expect((await postJson(formUrl(form), { n: 2 }, { origin: 'http://localhost:4321' })).status).toBe(200);
      expect((await postJson(formUrl(form), { n: 3 })).status).toBe(200);
      expect((await request(formUrl(form), { method: 'POST', body: new URLSearchParams({ n: '4' }), headers: { origin: 'https://www.acme.example' } })).status).toBe(200);
      expect(await rows(form)).toHaveLength(4);
    });

    it('with project, holds the project\'s hostnames until a change to what hosting serves is announced', async () => {
      const form = await createForm(suite.store);
      const sites = new ProjectSites(suite.store, { maxEntries: 100, unheardMaxAgeMs: 60_000 });
      try {
        // PostgreSQL: once it listens (its first connection counts as a change that may have been missed).
        await eventually(() => Promise.resolve(suite.store.signals.sites.hears()), (listening) => listening, 'the site-change listener');
        expect(await sites.hostnames(form.projectId)).toEqual([]);
        await suite.store.transaction((trx) => replaceProjectDomains(trx, form.projectId, [{ hostname: 'WWW.Beta.example', environment: 'production', position: 0 }]));
        // Held: a post does not read the domains again...
        expect(await sites.hostnames(form.projectId)).toEqual([]);
        // ...until a push that changes them announces it, as it does for hosting.
        suite.store.signals.sites.announce();
        expect(await sites.hostnames(form.projectId)).toEqual(['www.beta.example']);
        expect(await sites.domains(form.projectId)).toEqual([{ hostname: 'www.beta.example', environment: 'production' }]);
      } finally {
        sites.close();
      }
    });

    it('with a list, takes only those origins', async () => {
      const form = await protectedForm({ origins: 'https://a.example, https://b.example' });
      expect((await postJson(formUrl(form), {}, { origin: 'https://b.example' })).status).toBe(200);
      expect((await postJson(formUrl(form), {}, { origin: 'https://c.example' })).status).toBe(403);
    });
  });

  describe('the settings', () => {
    it('refuse Turnstile or hCaptcha without a secret, and origins that are not origins', async () => {
      const form = await createForm(suite.store);
      const scope = { workspace: form.workspace, project: form.project, slug: form.slug };
      await expect(updateFormSettings(context, adminPrincipal, { ...scope, captcha: 'turnstile' })).rejects.toMatchObject({ code: 'validation_failed', details: { errors: { captchaSecret: expect.any(String) } } });
      await expect(updateFormSettings(context, adminPrincipal, { ...scope, origins: 'https://a.example/path' })).rejects.toMatchObject({ code: 'validation_failed', details: { errors: { origins: expect.any(String) } } });
      // Whoever calls (the page sends what the browser posted), the kind and the bound are checked here.
      await expect(updateFormSettings(context, adminPrincipal, { ...scope, captcha: 'recaptcha' })).rejects.toMatchObject({
        code: 'validation_failed',
        details: { errors: { captcha: 'must be none, altcha, turnstile or hcaptcha' } },
      });
      await expect(updateFormSettings(context, adminPrincipal, { ...scope, maxLinks: 10_001 })).rejects.toMatchObject({ code: 'validation_failed', details: { errors: { maxLinks: expect.any(String) } } });
      const set = await updateFormSettings(context, adminPrincipal, { ...scope, captcha: 'hcaptcha', captchaSecret: 's', maxLinks: 3, origins: 'project' });
      expect(set.form).toMatchObject({ captcha: 'hcaptcha', captchaSecretSet: true, maxLinks: 3, origins: 'project' });
      expect(JSON.stringify(set)).not.toContain('"s"');
    });
  });
});
