// Runs the real `svc` binary (packages/cli/dist) against a real `svc serve`: build first.
import { createHash, randomBytes } from 'node:crypto';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '@svc/server';
import {
  type CliTestServer,
  createProject,
  failOnFailPath,
  postJson,
  request,
  selectBackend,
  startCliTestServer,
  startReceiver,
  type ReceivedRequest,
  runSvcOnTerminal,
  serviceJson,
  terminalAvailable,
  type WebhookReceiver,
} from '@svc/testkit';

const backend = await selectBackend();

interface FormInfo {
  slug: string;
  url: string;
}

const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

function multipart(fields: Record<string, string>, files: Record<string, { name: string; content: string; type?: string }> = {}): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const [name, file] of Object.entries(files)) form.append(name, new Blob([file.content], { type: file.type ?? 'application/octet-stream' }), file.name);
  return form;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe.runIf(backend.available)(`forms for people on ${backend.name}`, () => {
  let cli: CliTestServer;
  let store: Store;
  let receiver: WebhookReceiver;
  let directory: string;
  let contact: FormInfo;
  let other: FormInfo;

  const svc = (args: string[]) => cli.svc(args, { cwd: directory });
  const eventsOfType = (type: string) => (request: ReceivedRequest) => request.eventType === type;

  beforeAll(async () => {
    cli = await startCliTestServer(['--allow-private-targets', '--retry-schedule', '1h']);
    store = await cli.environment.openStore();
    receiver = await startReceiver(failOnFailPath);
    directory = await createProject(cli, 'people', 'site', {
      forms: [{ slug: 'contact', name: 'Contact' }, { slug: 'other' }],
      domains: { production: ['www.people.example'] },
    });
    const forms = (await svc(['forms', 'list', '--json'])).json<{ forms: FormInfo[] }>().forms;
    contact = forms.find((form) => form.slug === 'contact')!;
    other = forms.find((form) => form.slug === 'other')!;
    expect((await svc(['webhooks', 'add', '--url', `${receiver.url}/hook`, '--events', 'form.*'])).code).toBe(0);
  });
  afterAll(async () => {
    await receiver?.close();
    await store?.close();
    await cli?.stop();
  });

  describe('a browser posting a plain HTML form', () => {
    it('lands on a thank-you page with a link back to the page it came from, while JSON clients still get JSON', async () => {
      const page = await request(contact.url, { method: 'POST', headers: { ...html, referer: 'https://www.people.example/contact' }, body: multipart({ name: 'Ada', email: 'ada@example.com' }) });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'none'; style-src 'sha256-/);
      expect(page.text).toContain('<h1>Thank you</h1>');
      expect(page.text).toContain('Your message to Contact was sent.');
      expect(page.text).toContain('<a href="https://www.people.example/contact">Back to the page you came from</a>');

      const script = await postJson(contact.url, { name: 'Grace' });
      expect(script.status).toBe(200);
      expect(script.body).toEqual({ ok: true, id: expect.stringMatching(/^sub_/) });
      const both = await request(contact.url, { method: 'POST', headers: { accept: 'application/json, text/html' }, body: multipart({ name: 'Linus' }) });
      expect(both.body).toEqual({ ok: true, id: expect.stringMatching(/^sub_/) });
    });

    it('goes to the success URL, or to _redirect when it is on the project\'s domains or the posting origin, and stores no instruction field', async () => {
      const plain = await request(other.url, { method: 'POST', headers: html, body: multipart({ a: '1', _redirect: 'https://evil.example/phish', _gotcha: 'x' }) });
      expect(plain.status).toBe(200);
      expect(plain.text).toContain('<h1>Thank you</h1>');
      expect(plain.text).not.toContain('Back to the page');

      expect((await svc(['forms', 'set', 'other', '--success-url', 'https://www.people.example/thanks', '--error-url', 'https://www.people.example/oops'])).code).toBe(0);
      const toSuccess = await request(other.url, { method: 'POST', headers: html, body: multipart({ a: '2', _redirect: 'https://evil.example/phish' }) });
      expect([toSuccess.status, toSuccess.headers.get('location')]).toEqual([303, 'https://www.people.example/thanks']);
      const toDomain = await request(other.url, { method: 'POST', headers: html, body: multipart({ a: '3', _redirect: 'https://www.people.example/special?from=form' }) });
      expect(toDomain.headers.get('location')).toBe('https://www.people.example/special?from=form');
      const toOrigin = await request(other.url, { method: 'POST', headers: { ...html, origin: 'http://localhost:3000' }, body: multipart({ a: '4', _redirect: 'http://localhost:3000/done' }) });
      expect(toOrigin.headers.get('location')).toBe('http://localhost:3000/done');
      const json = await postJson(other.url, { a: '5', _redirect: 'https://www.people.example/special' });
      expect([json.status, json.body]).toEqual([200, { ok: true, id: expect.any(String) }]);

      const stored = (await svc(['submissions', 'list', '--form', 'other', '--json'])).json<{ submissions: { fields: Record<string, unknown> }[] }>().submissions;
      expect(stored.map((submission) => submission.fields)).toEqual([{ a: '5' }, { a: '4' }, { a: '3' }, { a: '2' }, { a: '1' }]);
    });

    it('routes a filled honeypot field to Spam silently, and does not store it', async () => {
      const answer = await request(contact.url, { method: 'POST', headers: html, body: multipart({ name: 'Bot', 'x-service-honeypot': 'http://spam.example' }) });
      expect(answer.status).toBe(200);
      expect(answer.text).toContain('<h1>Thank you</h1>');
      const empty = await request(contact.url, { method: 'POST', body: multipart({ name: 'Human', 'x-service-honeypot': '' }) });
      expect(empty.status).toBe(200);
      const spam = (await svc(['submissions', 'list', '--form', 'contact', '--spam', '--json'])).json<{ submissions: { fields: Record<string, unknown> }[] }>().submissions;
      expect(spam.map((submission) => submission.fields)).toContainEqual({ name: 'Bot' });
      const inbox = (await svc(['submissions', 'list', '--form', 'contact', '--json'])).json<{ submissions: { fields: Record<string, unknown> }[] }>().submissions;
      expect(inbox[0]!.fields).toEqual({ name: 'Human' });
    });

    it('explains each error in words with its status, or sends the browser to the error URL with the code and field', async () => {
      const invalid = await request(contact.url, { method: 'POST', headers: html, body: multipart({ email: 'not an address' }) });
      expect(invalid.status).toBe(422);
      expect(invalid.text).toContain('<li><strong>email</strong> must be a valid email address.</li>');
      const urlencoded = await request(contact.url, { method: 'POST', headers: { ...html, 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=a%40b.co' });
      expect(urlencoded.status).toBe(415);
      expect(urlencoded.text).toContain('enctype=&quot;multipart/form-data&quot;');
      const unknown = await request(`${cli.url}/api/f/nosuchformendpoint000000`, { method: 'POST', headers: html, body: multipart({ a: '1' }) });
      expect(unknown.status).toBe(404);
      expect(unknown.text).toContain('This form does not exist');

      const toErrorUrl = await request(other.url, { method: 'POST', headers: html, body: multipart({ email: 'nope' }) });
      expect([toErrorUrl.status, toErrorUrl.headers.get('location')]).toEqual([303, 'https://www.people.example/oops?error=validation_failed&field=email']);

      expect((await svc(['forms', 'set', 'other', '--rate-limit', '1/1h', '--error-url', 'none'])).code).toBe(0);
      await request(other.url, { method: 'POST', headers: html, body: multipart({ a: 'x' }) });
      const limited = await request(other.url, { method: 'POST', headers: html, body: multipart({ a: 'y' }) });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.text).toMatch(/Please wait about \d+ minutes and send it again/);
      expect((await svc(['forms', 'set', 'other', '--rate-limit', 'default', '--success-url', 'none'])).code).toBe(0);
    });
  });

  describe('svc forms set', () => {
    it('changes only what it is given and shows every setting', async () => {
      const set = await svc(['forms', 'set', 'contact', '--success-url', 'https://www.people.example/thanks']);
      expect(set.code).toBe(0);
      expect(set.stdout).toBe(
        [
          'Updated form contact.',
          '  success URL:   https://www.people.example/thanks',
          '  error URL:     none (a page that says what went wrong)',
          '  notify:        nobody',
          '  rate limit:    default (30/5m)',
          '  retention:     kept until deleted',
          '',
        ].join('\n'),
      );
      const again = await svc(['forms', 'set', 'contact', '--success-url', 'https://www.people.example/thanks', '--json']);
      expect(again.json()).toMatchObject({ ok: true, changed: false, form: { slug: 'contact', successUrl: 'https://www.people.example/thanks', errorUrl: null, notify: [] } });
      expect((await svc(['forms', 'set', 'contact', '--success-url', 'none'])).code).toBe(0);
    });

    it('refuses what is not an absolute http(s) URL or an email address, and changes nothing', async () => {
      const bad = await svc(['forms', 'set', 'contact', '--success-url', 'javascript:alert(1)', '--error-url', '/relative', '--json']);
      expect(bad.code).toBe(1);
      expect(bad.json()).toMatchObject({
        ok: false,
        error: { code: 'validation_failed', details: { errors: { successUrl: 'must be an absolute http:// or https:// URL', errorUrl: 'must be an absolute http:// or https:// URL' } } },
      });
      const emails = await svc(['forms', 'set', 'contact', '--notify', 'owner@example.com,not-an-address', '--json']);
      expect(emails.json()).toMatchObject({ ok: false, error: { code: 'validation_failed', details: { errors: { notify: 'not valid email addresses: not-an-address' } } } });
      const nothing = await svc(['forms', 'set', 'contact']);
      expect([nothing.code, nothing.stderr]).toEqual([2, expect.stringContaining('give at least one of --success-url, --error-url, --notify, --rate-limit and --retention')]);
      const retention = await svc(['forms', 'set', 'contact', '--retention', '90d']);
      expect(retention.stdout).toContain('  retention:     90d, then removed\n');
      const tooShort = await svc(['forms', 'set', 'contact', '--retention', '10s', '--json']);
      expect(tooShort.json()).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
      expect((await svc(['forms', 'set', 'contact', '--retention', 'none'])).code).toBe(0);
    });

    it('refuses notification addresses when the server cannot send email', async () => {
      const refused = await svc(['forms', 'set', 'contact', '--notify', 'owner@example.com']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('email notifications need the server started with --smtp-url and --mail-from');
    });
  });

  describe('the owner\'s operations on a submission', () => {
    it('show prints every field with escape sequences escaped, never raw', async () => {
      const posted = await postJson(contact.url, { name: 'Mallory\u001b[2J\u001b[H', message: 'line one\nline two\u0007', email: 'm@example.com' });
      const id = (posted.body as { id: string }).id;
      const shown = await svc(['submissions', 'show', id]);
      expect(shown.code).toBe(0);
      expect(shown.stdout).toContain('  name: Mallory\\e[2J\\e[H\n');
      expect(shown.stdout).toContain('  message: line one\\nline two\\u{7}\n');
      // eslint-disable-next-line no-control-regex -- the point: no control character reaches the terminal
      expect(shown.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
      const listed = await svc(['submissions', 'list', '--form', 'contact']);
      expect(listed.stdout).toContain('Mallory\\e[2J\\e[H');
      // eslint-disable-next-line no-control-regex -- as above
      expect(listed.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f]/);
      const json = await svc(['submissions', 'show', id, '--json']);
      expect(json.json()).toMatchObject({ ok: true, submission: { id, form: 'contact', state: 'inbox', fields: { name: 'Mallory\u001b[2J\u001b[H' } } });
    });

    it('download writes the files byte for byte under their names, never over an existing file, and --field picks one field', async () => {
      const posted = await request(contact.url, {
        method: 'POST',
        body: multipart({ name: 'Files' }, { cv: { name: 'cv.pdf', content: '%PDF-1.4 the cv', type: 'application/pdf' }, photo: { name: '../../etc/passwd', content: 'not really' } }),
      });
      const id = (posted.body as { id: string }).id;
      const target = await cli.directory();
      const first = await cli.svc(['submissions', 'download', id, '--output', 'out', '--workspace', 'people', '--project', 'site', '--json'], { cwd: target });
      expect(first.code).toBe(0);
      expect(first.json()).toMatchObject({ ok: true, files: [{ field: 'cv', name: 'cv.pdf' }, { field: 'photo', name: 'passwd' }] });
      expect((await readdir(join(target, 'out'))).sort()).toEqual(['cv.pdf', 'passwd']);
      expect(await readFile(join(target, 'out', 'cv.pdf'), 'utf8')).toBe('%PDF-1.4 the cv');
      const second = await cli.svc(['submissions', 'download', id, '--field', 'cv', '--output', 'out', '--workspace', 'people', '--project', 'site'], { cwd: target });
      expect(second.code).toBe(0);
      expect((await readdir(join(target, 'out'))).sort()).toEqual(['cv (2).pdf', 'cv.pdf', 'passwd']);
      const none = await cli.svc(['submissions', 'download', id, '--field', 'nothing', '--workspace', 'people', '--project', 'site'], { cwd: target });
      expect([none.code, none.stderr]).toEqual([1, expect.stringContaining('has no files in field "nothing"')]);
    });

    it('move to the inbox sends form.submission.created, to Spam form.submission.spam, and a move to where it is changes nothing', async () => {
      const spam = await postJson(contact.url, { name: 'Maybe spam' }, { 'x-service-honeypot': '1' });
      const id = (spam.body as { id: string }).id;
      await receiver.waitFor(1, (request) => request.body.toString().includes(id) && request.eventType === 'form.submission.spam');
      const moved = await svc(['submissions', 'move', id, '--to', 'inbox']);
      expect([moved.code, moved.stdout]).toEqual([0, `Moved ${id} (form contact) to the inbox.\n`]);
      const [created] = await receiver.waitFor(1, (request) => request.body.toString().includes(id) && request.eventType === 'form.submission.created');
      const payload = JSON.parse(created!.body.toString()) as { data: { submission: { id: string; fields: unknown; createdAt: string } }; createdAt: string };
      expect(payload.data.submission).toMatchObject({ id, fields: { name: 'Maybe spam' } });
      expect(Date.parse(payload.data.submission.createdAt)).toBeLessThanOrEqual(Date.parse(payload.createdAt));
      const same = await svc(['submissions', 'move', id, '--to', 'inbox', '--json']);
      expect(same.json()).toMatchObject({ ok: true, changed: false, submission: { id, state: 'inbox' } });
      expect((await svc(['submissions', 'move', id, '--to', 'spam'])).code).toBe(0);
      await receiver.waitFor(2, (request) => request.body.toString().includes(id) && request.eventType === 'form.submission.spam');
      const missing = await svc(['submissions', 'move', id]);
      expect(missing.code).toBe(2);
    });

    it('delete erases the submission, its files unless shared, its key, and every copy its events kept, then sends form.submission.deleted without fields', async () => {
      const failing = await svc(['webhooks', 'add', '--url', `${receiver.url}/fail`, '--events', 'form.submission.created', '--json']);
      const failingId = failing.json<{ webhook: { id: string } }>().webhook.id;
      const shared = { name: 'same.txt', content: 'the same bytes in two submissions' };
      const keep = await request(contact.url, { method: 'POST', body: multipart({ name: 'Keep' }, { doc: shared }) });
      const doomed = await request(contact.url, {
        method: 'POST',
        headers: { 'idempotency-key': 'erase-me' },
        body: multipart({ name: 'Erase me', email: 'erase@example.com' }, { doc: shared, own: { name: 'own.txt', content: 'only in the erased one' } }),
      });
      const id = (doomed.body as { id: string }).id;
      const [original] = await receiver.waitFor(1, (request) => request.path === '/hook' && request.body.toString().includes(id));
      await receiver.waitFor(1, (request) => request.path === '/fail' && request.body.toString().includes(id));

      const deleted = await svc(['submissions', 'delete', id]);
      expect([deleted.code, deleted.stdout]).toEqual([0, `Deleted submission ${id} of form contact, with its files and every copy its events kept.\n`]);
      expect((await svc(['submissions', 'show', id])).code).toBe(1);

      const [gone] = await receiver.waitFor(1, eventsOfType('form.submission.deleted'));
      const notice = JSON.parse(gone!.body.toString()) as { data: Record<string, unknown> };
      expect(notice.data).toEqual({ form: { id: expect.any(String), slug: 'contact', name: 'Contact' }, submission: { id, createdAt: expect.any(String), deletedAt: expect.any(String) } });
      expect(gone!.body.toString()).not.toContain('Erase me');

      const event = await store.db.selectFrom('events').select(['payload']).where('id', '=', original!.eventId).executeTakeFirstOrThrow();
      expect(event.payload).not.toContain('Erase me');
      expect(JSON.parse(event.payload)).toMatchObject({ id: original!.eventId, data: { submission: { id, deletedAt: expect.any(String) } } });
      const deliveries = await store.db.selectFrom('deliveries').select(['status', 'last_error', 'webhook_id']).where('event_id', '=', original!.eventId).execute();
      expect(deliveries.find((delivery) => delivery.webhook_id === failingId)).toMatchObject({ status: 'failed', last_error: 'cancelled: the submission was deleted' });
      const bodies = await store.db
        .selectFrom('delivery_attempts')
        .innerJoin('deliveries', 'deliveries.id', 'delivery_attempts.delivery_id')
        .select('delivery_attempts.response_body')
        .where('deliveries.event_id', '=', original!.eventId)
        .execute();
      expect(bodies.map((row) => row.response_body)).toEqual(bodies.map(() => null));

      expect(await store.files.open(sha256('only in the erased one'))).toBeNull();
      const kept = (keep.body as { id: string }).id;
      const download = await cli.svc(['submissions', 'download', kept, '--workspace', 'people', '--project', 'site', '--output', 'kept'], { cwd: await cli.directory() });
      expect(download.code).toBe(0);
      const again = await request(contact.url, { method: 'POST', headers: { 'idempotency-key': 'erase-me' }, body: multipart({ name: 'New one' }) });
      expect((again.body as { id: string }).id).not.toBe(id);
      expect((await svc(['webhooks', 'disable', failingId])).code).toBe(0);
    });

    it('push --prune erases the submissions of a pruned form as delete does: no field left in their events, deliveries cancelled, files removed, form.submission.deleted sent', async () => {
      const marker = `pr${randomBytes(6).toString('hex')}`;
      const pruneDirectory = await createProject(cli, 'prune', 'site', { forms: [{ slug: 'keep' }, { slug: 'doomed' }] });
      const inPrune = (args: string[]) => cli.svc(args, { cwd: pruneDirectory });
      const doomed = (await inPrune(['forms', 'list', '--json'])).json<{ forms: FormInfo[] }>().forms.find((form) => form.slug === 'doomed')!;
      expect((await inPrune(['webhooks', 'add', '--url', `${receiver.url}/hook`, '--events', 'form.*'])).code).toBe(0);
      const failingId = (await inPrune(['webhooks', 'add', '--url', `${receiver.url}/fail`, '--events', 'form.submission.created', '--json'])).json<{ webhook: { id: string } }>().webhook.id;
      const posted = await request(doomed.url, { method: 'POST', body: multipart({ name: `Pruned ${marker}` }, { doc: { name: 'doc.txt', content: `file of ${marker}` } }) });
      const id = (posted.body as { id: string }).id;
      const [original] = await receiver.waitFor(1, (request) => request.path === '/hook' && request.body.toString().includes(id));
      await receiver.waitFor(1, (request) => request.path === '/fail' && request.body.toString().includes(id));

      await writeFile(join(pruneDirectory, 'service.json'), serviceJson('prune', 'site', { forms: [{ slug: 'keep' }] }));
      const pruned = await inPrune(['push', '--prune', '--json']);
      expect(pruned.json()).toMatchObject({ ok: true, prunedForms: [{ slug: 'doomed', submissions: 1 }] });

      const event = await store.db.selectFrom('events').select(['payload']).where('id', '=', original!.eventId).executeTakeFirstOrThrow();
      expect(JSON.parse(event.payload)).toMatchObject({ id: original!.eventId, data: { form: { slug: 'doomed' }, submission: { id, deletedAt: expect.any(String) } } });
      const delivery = await store.db.selectFrom('deliveries').select(['status', 'last_error']).where('event_id', '=', original!.eventId).where('webhook_id', '=', failingId).executeTakeFirstOrThrow();
      expect(delivery).toEqual({ status: 'failed', last_error: 'cancelled: the submission was deleted' });
      const [gone] = await receiver.waitFor(1, (request) => request.eventType === 'form.submission.deleted' && request.body.toString().includes(id));
      expect(JSON.parse(gone!.body.toString())).toMatchObject({ data: { form: { slug: 'doomed' }, submission: { id, deletedAt: expect.any(String) } } });
      const projectEvents = await store.db.selectFrom('events').innerJoin('projects', 'projects.id', 'events.project_id').select('events.payload').where('projects.name', '=', 'site').execute();
      expect(projectEvents.filter((row) => row.payload.includes(marker))).toEqual([]);
      expect(await store.files.open(sha256(`file of ${marker}`))).toBeNull();
      expect((await inPrune(['webhooks', 'disable', failingId])).code).toBe(0);
    });

    it('erase --email deletes every submission of the project that holds the address, and no table or file keeps it', async () => {
      const marker = `zq${randomBytes(6).toString('hex')}`;
      const address = `Erase.Me.${marker}@Example.com`;
      const first = await postJson(contact.url, { name: 'To erase', email: address }, { 'idempotency-key': `key-${marker}` });
      const second = await request(other.url, { method: 'POST', body: multipart({ message: `write to ${address.toLowerCase()} please` }, { doc: { name: `${marker}.txt`, content: `file of ${marker}` } }) });
      const kept = await postJson(contact.url, { name: 'Keep me', email: 'someone.else@example.com' });
      const ids = [(first.body as { id: string }).id, (second.body as { id: string }).id];
      await receiver.waitFor(1, (request) => request.body.toString().includes(ids[1]!));

      const erased = await svc(['submissions', 'erase', '--email', address.toLowerCase(), '--json']);
      expect(erased.json()).toEqual({ ok: true, email: address.toLowerCase(), erased: 2, submissions: expect.arrayContaining(ids.map((id): unknown => expect.objectContaining({ id }))), erasedRequests: 0, requests: [] });
      const again = await svc(['submissions', 'erase', '--email', address]);
      expect(again.stdout).toBe(`No submission or request of this project holds ${address}.\n`);
      expect((await svc(['submissions', 'show', (kept.body as { id: string }).id])).code).toBe(0);
      await receiver.waitFor(2, (request) => request.eventType === 'form.submission.deleted' && ids.some((id) => request.body.toString().includes(id)));

      expect(await store.files.open(sha256(`file of ${marker}`))).toBeNull();
      if (backend.name === 'sqlite') {
        for (const name of ['svc.sqlite', 'svc.sqlite-wal']) {
          const bytes = await readFile(join(cli.environment.dataDir, name)).catch(() => Buffer.alloc(0));
          expect(bytes.includes(marker), `${name} holds no trace of the erased submissions`).toBe(false);
        }
      } else {
        const like = `%${marker}%`;
        expect(await store.db.selectFrom('submissions').select('id').where('fields', 'like', like).execute()).toEqual([]);
        expect(await store.db.selectFrom('events').select('id').where('payload', 'like', like).execute()).toEqual([]);
        expect(await store.db.selectFrom('idempotency_keys').select('key').where('key', 'like', like).execute()).toEqual([]);
        expect(await store.db.selectFrom('delivery_attempts').select('id').where('response_body', 'like', like).execute()).toEqual([]);
      }
      expect((await svc(['submissions', 'erase', '--email', 'not an address'])).code).toBe(1);
    });

    it('refuses every owner operation to a token of another workspace, as if the submission did not exist', async () => {
      const posted = await postJson(contact.url, { name: 'Private' });
      const id = (posted.body as { id: string }).id;
      const token = (await cli.svc(['tokens', 'create', '--name', 'outsider', '--workspace', 'outsiders'])).stdout.trim();
      const scope = ['--workspace', 'people', '--project', 'site'];
      for (const args of [['show', id], ['download', id], ['move', id, '--to', 'spam'], ['delete', id, '--yes']]) {
        const refused = await cli.svc(['submissions', ...args, ...scope, '--json'], { token });
        expect(refused.code).toBe(1);
        expect(refused.json()).toMatchObject({ ok: false, error: { code: 'not_found' } });
      }
      expect((await svc(['submissions', 'show', id, '--json'])).json()).toMatchObject({ submission: { id, state: 'inbox', fields: { name: 'Private' } } });
    });
  });

  it.runIf(terminalAvailable)('exports to a terminal with the control characters of submitted data shown escaped, and exactly to a pipe or a file', async () => {
    const sequences = 'Mallory\u001b]0;pwned\u0007\u001b[2J\u001b[H\rFake line \u202eeulav';
    await postJson(other.url, { a: sequences });
    const env = { SVC_API_URL: cli.url, SVC_TOKEN: cli.adminToken, SVC_CONFIG_DIR: cli.configDir };
    for (const format of ['csv', 'ndjson']) {
      const shown = await runSvcOnTerminal(['submissions', 'export', '--form', 'other', '--format', format], { cwd: directory, env, answers: [] });
      expect(shown.code, shown.screen).toBe(0);
      for (const unsafe of ['\u001b]', '\u001b[2J', '\u001b[H', '\u0007', '\u202e']) expect(shown.raw, `${format}: ${JSON.stringify(unsafe)}`).not.toContain(unsafe);
      expect(shown.screen).toContain(format === 'csv' ? 'Mallory\\e]0;pwned\\u{7}\\e[2J\\e[H\\rFake line \\u{202e}eulav' : 'Mallory\\u001b]0;pwned\\u0007\\u001b[2J\\u001b[H\\rFake line \\u{202e}eulav');
    }
    const piped = await svc(['submissions', 'export', '--form', 'other']);
    expect(piped.stdout).toContain(sequences);
    const toFile = await runSvcOnTerminal(['submissions', 'export', '--form', 'other', '--output', 'terminal-export.csv'], { cwd: directory, env, answers: [] });
    expect(toFile.code, toFile.screen).toBe(0);
    expect(await readFile(join(directory, 'terminal-export.csv'), 'utf8')).toContain(sequences);
  });

  it('exports CSV with formula cells neutralised, and exactly as submitted with --raw', async () => {
    await postJson(other.url, { a: '=HYPERLINK("http://evil.example","click")' });
    const csv = await svc(['submissions', 'export', '--form', 'other']);
    expect(csv.stdout).toContain(`,"'=HYPERLINK(""http://evil.example"",""click"")"`);
    const raw = await svc(['submissions', 'export', '--form', 'other', '--raw']);
    expect(raw.stdout).toContain(`,"=HYPERLINK(""http://evil.example"",""click"")"`);
  });
});
