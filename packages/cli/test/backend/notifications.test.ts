// Runs the real `svc` binary (packages/cli/dist) against a real `svc serve` and a real SMTP server: build first.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestEnvironment,
  eventually,
  newEncryptionKey,
  postJson,
  request,
  runSvc,
  selectBackend,
  serviceJson,
  startMailServer,
  startSvc,
  withJson,
  type CliResult,
  type MailServer,
  type SvcProcess,
  type TestEnvironment,
} from '@svc/testkit';

const backend = await selectBackend();

interface Delivery {
  id: string;
  status: string;
  attemptCount: number;
  lastError: string | null;
}

describe.runIf(backend.available)(`notification emails on ${backend.name}`, () => {
  const encryptionKey = newEncryptionKey();
  const token = `svc_test_${randomBytes(16).toString('hex')}`;
  let environment: TestEnvironment;
  let mail: MailServer;
  let server: SvcProcess;
  let directory: string;
  let formUrl: string;
  let targetId: string;

  const serve = (): Promise<SvcProcess> =>
    startSvc({
      args: [
        ...environment.serverArgs,
        '--smtp-url',
        mail.url,
        '--mail-from',
        'Forms <forms@people.example>',
        '--retry-schedule',
        '1s,1s,1s,1s,1s,1s',
        '--delivery-timeout',
        '2s',
        '--delivery-lease',
        '3s',
        '--delivery-poll-interval',
        '300ms',
      ],
      env: { SVC_ENCRYPTION_KEY: encryptionKey, SVC_BOOTSTRAP_TOKEN: token },
    });
  const svc = async (args: string[]): Promise<CliResult> =>
    withJson(await runSvc(args, { cwd: directory, env: { SVC_API_URL: server.url, SVC_TOKEN: token, SVC_CONFIG_DIR: join(directory, '.config') } }));
  const emailDeliveries = async (): Promise<Delivery[]> => (await svc(['deliveries', 'list', '--webhook', targetId, '--json'])).json<{ deliveries: Delivery[] }>().deliveries;
  const mailsAbout = (id: string) => mail.mails.filter((received) => received.raw.includes(id));

  beforeAll(async () => {
    environment = await createTestEnvironment();
    mail = await startMailServer();
    server = await serve();
    directory = await mkdtemp(join(tmpdir(), 'svc-notify-'));
    expect((await svc(['init', '--workspace', 'people', '--project', 'site', '--framework', 'static', '--branch', 'main', '--yes'])).code).toBe(0);
    await writeFile(join(directory, 'service.json'), serviceJson('people', 'site', { forms: [{ slug: 'contact', name: 'Contact' }] }));
    expect((await svc(['push'])).code).toBe(0);
    formUrl = (await svc(['forms', 'list', '--json'])).json<{ forms: { url: string }[] }>().forms[0]!.url;
    const set = await svc(['forms', 'set', 'contact', '--notify', 'owner@people.example,sales@people.example', '--json']);
    expect(set.json()).toMatchObject({ ok: true, changed: true, form: { notify: ['owner@people.example', 'sales@people.example'] } });
    const webhooks = (await svc(['webhooks', 'list', '--json'])).json<{ webhooks: { id: string; url: string }[] }>().webhooks;
    // One notification target an address.
    expect(webhooks.map((webhook) => webhook.url).sort()).toEqual(['mailto:owner@people.example', 'mailto:sales@people.example']);
    targetId = webhooks.find((webhook) => webhook.url === 'mailto:owner@people.example')!.id;
  });
  afterAll(async () => {
    await server?.stop();
    await mail?.close();
    await environment?.cleanup();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('emails each new submission to the form\'s addresses with its fields, file names, Reply-To and a link, and nothing for spam', async () => {
    expect((await postJson(formUrl, { name: 'Bot' }, { 'x-service-honeypot': '1' })).status).toBe(200);
    const form = new FormData();
    form.set('name', 'Ada <script>alert(1)</script>');
    form.set('email', 'ada@example.com');
    form.set('message', 'First line\nSecond line');
    form.set('cv', new Blob(['%PDF-1.4'], { type: 'application/pdf' }), 'cv.pdf');
    const posted = await request(formUrl, { method: 'POST', body: form });
    const id = (posted.body as { id: string }).id;

    const email = await mail.waitForMailTo('owner@people.example');
    const toSales = await mail.waitForMailTo('sales@people.example');
    // A message a recipient: neither sees the other's address.
    expect([email.to, toSales.to]).toEqual([['owner@people.example'], ['sales@people.example']]);
    for (const one of [email, toSales]) expect(one.header('to')).not.toContain(one === email ? 'sales@' : 'owner@');
    expect(email.from).toBe('forms@people.example');
    expect(email.header('subject')).toBe('New submission: Contact');
    expect(email.raw.replace(/=\r?\n/g, '')).toContain('A new submission to the form Contact.\r\n');
    expect(email.header('reply-to')).toBe('ada@example.com');
    expect(email.header('auto-submitted')).toBe('auto-generated');
    const text = email.raw.replace(/=\r?\n/g, '');
    expect(text).toContain('name: Ada <script>alert(1)</script>');
    expect(text).toContain('message: First line\n  Second line'.replace(/\n/g, '\r\n'));
    expect(text).toContain('Files (not attached): cv.pdf (8 B)');
    expect(text).toContain(`/settings/people/site/forms/contact#${id}`);
    expect(text).toContain('Ada &lt;script>alert(1)&lt;/script>');
    expect(text).not.toContain('<td style=3D"border-bottom:1px solid #e4e7eb;white-space:pre-wrap">Ada <script>');

    const deliveries = await emailDeliveries();
    expect(deliveries).toEqual([expect.objectContaining({ status: 'succeeded', attemptCount: 1 })]);
    const shown = await svc(['deliveries', 'show', deliveries[0]!.id, '--json']);
    expect(shown.json()).toMatchObject({ attempts: [{ attempt: 1, statusCode: null, error: null, responseBody: expect.stringMatching(/^250 /) }] });
  });

  it('retries while the SMTP server refuses, and sends the email once when it accepts', async () => {
    mail.refuse(true);
    const id = ((await postJson(formUrl, { name: 'Patient', email: 'patient@example.com' })).body as { id: string }).id;
    await eventually(emailDeliveries, ([latest]) => latest?.status === 'pending' && (latest.lastError ?? '').includes('451'), 'a refused attempt');
    mail.refuse(false);
    const [sent] = await eventually(emailDeliveries, ([latest]) => latest?.status === 'succeeded', 'the email sent');
    expect(sent!.attemptCount).toBeGreaterThanOrEqual(2);
    await eventually(() => Promise.resolve(mailsAbout(id).length), (count) => count === 2, 'both recipients\' emails');
    expect(mailsAbout(id).map((one) => one.to[0]).sort()).toEqual(['owner@people.example', 'sales@people.example']);
  });

  it('sends the email of a submission acknowledged just before the server was killed, once it is back', async () => {
    mail.refuse(true);
    const answer = await postJson(formUrl, { name: 'Survivor' });
    expect(answer.status).toBe(200);
    const id = (answer.body as { id: string }).id;
    await server.kill();
    mail.refuse(false);
    expect(mailsAbout(id)).toHaveLength(0);
    server = await serve();
    await eventually(() => Promise.resolve(mailsAbout(id).length), (count) => count === 2, 'the emails after the restart', 20_000);
    expect(mailsAbout(id).map((one) => one.to[0]).sort()).toEqual(['owner@people.example', 'sales@people.example']);
  });

  it('splits at start a target stored before, which emailed both addresses at once, and sends what it had pending to each', async () => {
    const store = await environment.openStore();
    try {
      // The shape an earlier svc stored: one target with both addresses, one delivery pending.
      mail.refuse(true);
      const id = ((await postJson(`${server.url}${new URL(formUrl).pathname}`, { name: 'Pending at the upgrade' })).body as { id: string }).id;
      await eventually(emailDeliveries, ([latest]) => latest?.status === 'pending' && latest.attemptCount > 0, 'a refused attempt');
      await server.kill();
      const sales = await store.db.selectFrom('webhooks').select('id').where('url', '=', 'mailto:sales@people.example').executeTakeFirstOrThrow();
      await store.db.deleteFrom('webhooks').where('id', '=', sales.id).execute();
      await store.db.updateTable('webhooks').set({ url: 'mailto:owner@people.example,sales@people.example' }).where('id', '=', targetId).execute();
      mail.refuse(false);
      server = await serve();
      await eventually(() => Promise.resolve(mailsAbout(id).length), (count) => count === 2, 'both emails after the split', 20_000);
      expect(mailsAbout(id).map((one) => one.to)).toEqual(expect.arrayContaining([['owner@people.example'], ['sales@people.example']]));
      const urls = (await store.db.selectFrom('webhooks').select('url').where('kind', '=', 'email').execute()).map((row) => row.url).sort();
      expect(urls).toEqual(['mailto:owner@people.example', 'mailto:sales@people.example']);
    } finally {
      await store.close();
    }
  });

  it('keeps the notification target to the form\'s settings: it cannot be removed as a webhook, and --notify none removes it', async () => {
    targetId = (await svc(['webhooks', 'list', '--json'])).json<{ webhooks: { id: string; url: string }[] }>().webhooks.find((webhook) => webhook.url === 'mailto:owner@people.example')!.id;
    const refused = await svc(['webhooks', 'remove', targetId]);
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining('svc forms set SLUG --notify none')]);
    expect((await svc(['forms', 'set', 'contact', '--notify', 'none'])).code).toBe(0);
    const webhooks = (await svc(['webhooks', 'list', '--json'])).json<{ webhooks: unknown[] }>().webhooks;
    expect(webhooks).toEqual([]);
  });
});
