// Runs the real `svc` binary (packages/cli/dist) against a real `svc serve`: build first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTestServer, createProject, failOnFailPath, postJson, selectBackend, startCliTestServer, startReceiver, type WebhookReceiver } from '@svc/testkit';
import { verify } from '@svc/webhooks';

const backend = await selectBackend();

interface Webhook {
  webhook: { id: string; url: string; events: string[]; enabled: boolean };
  secret: string;
}
interface Delivery {
  id: string;
  webhookId: string;
  eventType: string;
  status: string;
  attemptCount: number;
}

describe.runIf(backend.available)(`svc webhooks and svc deliveries on ${backend.name}`, () => {
  let cli: CliTestServer;
  let receiver: WebhookReceiver;
  let directory: string;
  let formUrl: string;

  beforeAll(async () => {
    cli = await startCliTestServer(['--allow-private-targets']);
    receiver = await startReceiver(failOnFailPath);
    directory = await createProject(cli, 'hooks', 'site', { forms: [{ slug: 'contact', name: 'Contact' }] });
    formUrl = (await cli.svc(['forms', 'list', '--json'], { cwd: directory })).json<{ forms: { url: string }[] }>().forms[0]!.url;
  });
  afterAll(async () => {
    await cli?.stop();
    await receiver?.close();
  });

  const add = async (path: string, events: string): Promise<Webhook> => {
    const result = await cli.svc(['webhooks', 'add', '--url', `${receiver.url}${path}`, '--events', events, '--json'], { cwd: directory });
    expect(result.code).toBe(0);
    return result.json<Webhook>();
  };

  it('webhooks add prints the signing secret once; a new submission is delivered, signed with it', async () => {
    const human = await cli.svc(['webhooks', 'add', '--url', `${receiver.url}/hook`, '--events', 'form.*', '--description', 'CRM'], { cwd: directory });
    expect(human.code).toBe(0);
    const [added, secretLine] = human.stdout.trimEnd().split('\n');
    expect(added).toMatch(new RegExp(`^Added webhook wh_[0-9a-z]{26} → ${receiver.url}/hook \\(form\\.\\*\\)\\.$`));
    const secret = /^Signing secret \(shown only this once\): (whsec_\S+)$/.exec(secretLine!)?.[1];
    expect(secret).toBeDefined();

    const submitted = await postJson(formUrl, { email: 'ada@example.com' });
    const delivery = await receiver.next();
    expect(delivery.path).toBe('/hook');
    expect(delivery.headers['x-service-event']).toBe('form.submission.created');
    expect(() => verify(delivery.body, delivery.headers['x-service-signature'] as string, secret!)).not.toThrow();
    expect(JSON.parse(delivery.body.toString('utf8'))).toMatchObject({
      type: 'form.submission.created',
      workspace: 'hooks',
      project: 'site',
      data: { form: { slug: 'contact' }, submission: { id: (submitted.body as { id: string }).id, fields: { email: 'ada@example.com' } } },
    });

    const list = await cli.svc(['webhooks', 'list'], { cwd: directory });
    expect(list.stdout).toMatch(/^ID\s+URL\s+EVENTS\s+STATUS\s+DESCRIPTION\n/);
    expect(list.stdout).toContain(`${receiver.url}/hook  form.*  healthy  CRM`);
    expect(list.stdout).not.toContain(secret);
    const listJson = await cli.svc(['webhooks', 'list', '--json'], { cwd: directory });
    expect(listJson.stdout).not.toContain(secret);
    expect(listJson.json<{ webhooks: unknown[] }>().webhooks).toContainEqual(expect.objectContaining({ url: `${receiver.url}/hook`, events: ['form.*'], enabled: true, description: 'CRM' }));
  });

  it('webhooks add refuses a bad URL or pattern with validation_failed (exit 1)', async () => {
    const badUrl = await cli.svc(['webhooks', 'add', '--url', 'ftp://example.com', '--events', 'form.*', '--json'], { cwd: directory });
    expect(badUrl.code).toBe(1);
    expect(badUrl.json()).toMatchObject({ ok: false, error: { code: 'validation_failed', message: expect.stringContaining('url') } });
    const badPattern = await cli.svc(['webhooks', 'add', '--url', `${receiver.url}/x`, '--events', 'forms.*', '--json'], { cwd: directory });
    expect(badPattern.code).toBe(1);
    expect(badPattern.json()).toMatchObject({ ok: false, error: { code: 'validation_failed', message: expect.stringContaining('events') } });
  });

  it('webhooks test sends a signed sample now: exit 0 on 2xx, exit 1 delivery_failed otherwise', async () => {
    const good = await add('/test', 'deploy.*');
    const human = await cli.svc(['webhooks', 'test', good.webhook.id, '--event', 'deploy.succeeded'], { cwd: directory });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^Delivered deploy\.succeeded \(evt_\S+\): HTTP 200 in \d+ ms \(delivery dlv_\S+\)\.\n$/);
    const sample = await receiver.next();
    expect(sample.headers['x-service-event']).toBe('deploy.succeeded');
    expect(() => verify(sample.body, sample.headers['x-service-signature'] as string, good.secret)).not.toThrow();

    const bad = await add('/fail', '*');
    const failed = await cli.svc(['webhooks', 'test', bad.webhook.id, '--json'], { cwd: directory });
    await receiver.next();
    expect(failed.code).toBe(1);
    expect(failed.json()).toMatchObject({
      ok: false,
      error: {
        code: 'delivery_failed',
        message: expect.stringMatching(/^the receiver did not accept form\.submission\.created \(evt_\S+\): HTTP 500 after \d+ ms; it is retried at /),
        details: { delivery: { status: 'pending', attemptCount: 1 }, attempt: { statusCode: 500, responseBody: 'nope' } },
      },
    });
    const unknownEvent = await cli.svc(['webhooks', 'test', good.webhook.id, '--event', 'deploy.exploded', '--json'], { cwd: directory });
    expect(unknownEvent.json()).toMatchObject({ error: { code: 'validation_failed' } });
  });

  it('webhooks rotate-secret prints a new secret; during the grace period both secrets sign', async () => {
    const hook = await add('/rotate', 'request.*');
    const rotated = await cli.svc(['webhooks', 'rotate-secret', hook.webhook.id, '--grace', '1h'], { cwd: directory });
    expect(rotated.code).toBe(0);
    const secret = /\(shown only this once\): (whsec_\S+)\n/.exec(rotated.stdout)?.[1];
    expect(secret).toBeDefined();
    expect(secret).not.toBe(hook.secret);
    expect(rotated.stdout).toMatch(/The previous secret also signs until \d{4}-\d\d-\d\dT/);

    expect((await cli.svc(['webhooks', 'test', hook.webhook.id, '--event', 'request.created'], { cwd: directory })).code).toBe(0);
    const both = await receiver.next();
    const header = both.headers['x-service-signature'] as string;
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(() => verify(both.body, header, secret!)).not.toThrow();
    expect(() => verify(both.body, header, hook.secret)).not.toThrow();

    const now = await cli.svc(['webhooks', 'rotate-secret', hook.webhook.id, '--grace', '0', '--json'], { cwd: directory });
    const latest = now.json<Webhook & { webhook: { previousSecretExpiresAt: string | null } }>();
    expect(latest.webhook.previousSecretExpiresAt).toBeNull();
    expect((await cli.svc(['webhooks', 'test', hook.webhook.id], { cwd: directory })).code).toBe(0);
    const single = await receiver.next();
    expect((single.headers['x-service-signature'] as string).match(/v1=/g)).toHaveLength(1);
    expect(() => verify(single.body, single.headers['x-service-signature'] as string, latest.secret)).not.toThrow();
  });

  it('deliveries list, show and resend', async () => {
    const hook = await add('/resend', 'deploy.promoted');
    expect((await cli.svc(['webhooks', 'test', hook.webhook.id, '--event', 'deploy.promoted'], { cwd: directory })).code).toBe(0);
    await receiver.next();

    const listed = await cli.svc(['deliveries', 'list', '--webhook', hook.webhook.id, '--json'], { cwd: directory });
    expect(listed.code).toBe(0);
    const page = listed.json<{ deliveries: Delivery[]; nextCursor: string | null }>();
    expect(page.deliveries).toEqual([expect.objectContaining({ webhookId: hook.webhook.id, eventType: 'deploy.promoted', status: 'succeeded', attemptCount: 1 })]);
    const delivery = page.deliveries[0]!;
    const human = await cli.svc(['deliveries', 'list', '--webhook', hook.webhook.id], { cwd: directory });
    expect(human.stdout).toMatch(/^ID\s+WEBHOOK\s+EVENT\s+STATUS\s+ATTEMPTS\s+LAST ANSWER\s+CREATED\n/);
    expect(human.stdout).toMatch(new RegExp(`${delivery.id}\\s+${hook.webhook.id}\\s+deploy\\.promoted\\s+succeeded\\s+1\\s+HTTP 200\\s+`));
    const failedOnly = await cli.svc(['deliveries', 'list', '--status', 'failed', '--webhook', hook.webhook.id, '--json'], { cwd: directory });
    expect(failedOnly.json<{ deliveries: unknown[] }>().deliveries).toEqual([]);

    const shown = await cli.svc(['deliveries', 'show', delivery.id], { cwd: directory });
    expect(shown.stdout).toMatch(new RegExp(`^${delivery.id}: deploy\\.promoted \\(evt_\\S+\\) to ${hook.webhook.id}: succeeded\\n`));
    expect(shown.stdout).toMatch(/\n1\s+\S+\s+\d+ ms\s+HTTP 200\s+thanks\n$/);

    const resent = await cli.svc(['deliveries', 'resend', delivery.id], { cwd: directory });
    expect(resent.code).toBe(0);
    expect(resent.stdout).toBe(`Queued delivery ${delivery.id} (deploy.promoted) again: it is sent now.\n`);
    const again = await receiver.next();
    expect(again.path).toBe('/resend');
    expect(again.headers['x-service-delivery']).toBe(delivery.id);

    const unknown = await cli.svc(['deliveries', 'resend', 'dlv_unknown', '--json'], { cwd: directory });
    expect(unknown.code).toBe(1);
    expect(unknown.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('webhooks disable, enable and remove', async () => {
    const hook = await add('/toggle', 'form.*');
    const disabled = await cli.svc(['webhooks', 'disable', hook.webhook.id, '--reason', 'maintenance'], { cwd: directory });
    expect(disabled.stdout).toBe(`Disabled webhook ${hook.webhook.id} → ${receiver.url}/toggle (form.*, disabled: maintenance).\n`);
    const refused = await cli.svc(['webhooks', 'test', hook.webhook.id, '--json'], { cwd: directory });
    expect(refused.json()).toMatchObject({ error: { code: 'conflict' } });
    const enabled = await cli.svc(['webhooks', 'enable', hook.webhook.id, '--json'], { cwd: directory });
    expect(enabled.json()).toMatchObject({ ok: true, webhook: { id: hook.webhook.id, enabled: true, disabledReason: null } });

    const removed = await cli.svc(['webhooks', 'remove', hook.webhook.id], { cwd: directory });
    expect(removed.code).toBe(0);
    expect(removed.stdout).toBe(`Removed webhook ${hook.webhook.id} → ${receiver.url}/toggle (form.*).\n`);
    const list = await cli.svc(['webhooks', 'list', '--json'], { cwd: directory });
    expect(list.json<{ webhooks: { id: string }[] }>().webhooks.map((webhook) => webhook.id)).not.toContain(hook.webhook.id);
    const again = await cli.svc(['webhooks', 'remove', hook.webhook.id, '--json'], { cwd: directory });
    expect(again.code).toBe(1);
    expect(again.json()).toMatchObject({ error: { code: 'not_found' } });
  });
});
