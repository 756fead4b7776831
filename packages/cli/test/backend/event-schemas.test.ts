// Every event the running server sends validates against the JSON Schema it serves for its
// type at /schema/events/{type}.json (docs/webhooks.md). Runs the real `svc` binary: build first.
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTestServer, createProject, eventually, postJson, request, selectBackend, startCliTestServer, startReceiver, type WebhookReceiver } from '@svc/testkit';
import { eventTypes } from '@svc/protocol';

const backend = await selectBackend();

/** The smallest valid PNG (1×1, transparent), as the widget would send a screenshot. */
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const page = (title: string) => `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`;

interface Delivered {
  type: string;
  body: Record<string, unknown>;
}

describe.runIf(backend.available)(`the event schemas the server serves, against the events it sends, on ${backend.name}`, () => {
  let cli: CliTestServer;
  let receiver: WebhookReceiver;
  let directory: string;
  const ajv = new Ajv({ strict: true, allErrors: true });
  const validators = new Map<string, ValidateFunction>();

  beforeAll(async () => {
    // A deploy left uploading fails after a second, so deploy.failed is sent without waiting long.
    cli = await startCliTestServer(['--allow-private-targets', '--deploy-timeout', '1s']);
    receiver = await startReceiver();
    directory = await createProject(cli, 'schemas', 'site', {
      environments: { production: { branch: 'main' }, staging: { branch: 'dev' } },
      forms: [{ slug: 'contact', name: 'Contact' }],
      domains: { production: ['www.schemas.test'] },
    });
    const added = await cli.svc(['webhooks', 'add', '--url', `${receiver.url}/all`, '--events', '*', '--json'], { cwd: directory });
    expect(added.code, added.stderr).toBe(0);
  });
  afterAll(async () => {
    await cli?.stop();
    await receiver?.close();
  });

  const svc = async (args: string[]) => {
    const result = await cli.svc([...args, '--json'], { cwd: directory });
    expect(result.code, `${args.join(' ')}: ${result.stdout}${result.stderr}`).toBe(0);
    return result.json<Record<string, unknown>>();
  };
  const delivered = (): Delivered[] =>
    receiver.requests.filter((received) => received.path === '/all').map((received) => ({ type: String(received.headers['x-service-event']), body: JSON.parse(received.body.toString('utf8')) as Record<string, unknown> }));
  const validatorOf = async (type: string): Promise<ValidateFunction> => {
    const known = validators.get(type);
    if (known) return known;
    const answer = await fetch(`${cli.url}/schema/events/${type}.json`);
    expect([answer.status, answer.headers.get('content-type')]).toEqual([200, 'application/schema+json; charset=utf-8']);
    const schema = (await answer.json()) as Record<string, unknown>;
    expect(schema).toMatchObject({ $schema: 'http://json-schema.org/draft-07/schema#', $id: `${cli.url}/schema/events/${type}.json`, title: type });
    const validate = ajv.compile(schema);
    validators.set(type, validate);
    return validate;
  };
  const problems = async (event: Delivered): Promise<string[]> => {
    const validate = await validatorOf(event.type);
    return validate(event.body) ? [] : (validate.errors ?? []).map((error) => `${event.type} ${error.instancePath} ${error.message ?? ''}`);
  };

  it('every type the server emits, driven through the real server, validates against its served schema', async () => {
    // form.*: an inbox submission with a file, a spam one, a move, a deletion.
    const { forms } = await svc(['forms', 'list']);
    const formUrl = (forms as { url: string }[])[0]!.url;
    const withFile = new FormData();
    withFile.set('email', 'ada@example.com');
    withFile.set('message', 'Hello');
    withFile.set('cv', new Blob(['%PDF-1.4 cv'], { type: 'application/pdf' }), 'cv.pdf');
    const kept = await request(formUrl, { method: 'POST', body: withFile });
    expect(kept.status).toBe(200);
    const spam = await postJson(formUrl, { email: 'bot@example.com', tags: ['a', 'b'], count: 3 }, { 'x-service-honeypot': '1' });
    const spamId = (spam.body as { id: string }).id;
    await svc(['submissions', 'move', spamId, '--to', 'inbox']);
    await svc(['submissions', 'delete', (kept.body as { id: string }).id, '--yes']);

    // request.*: a visitor's request with a screenshot, a reply, resolve, reopen.
    const { key } = await svc(['pinpoints', 'snippet']);
    const visitor = new FormData();
    for (const [name, value] of Object.entries({ comment: 'The price is wrong', url: 'http://localhost:5173/pricing', selector: 'main > h1', environment: 'development', email: 'ada@example.com', viewport: '1280x720' })) visitor.set(name, value);
    visitor.set('screenshot', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'screenshot.png');
    const sent = await request(`${cli.url}/api/p/${String(key)}/requests`, { method: 'POST', headers: { origin: 'http://localhost:5173' }, body: visitor });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const requestId = (sent.body as { id: string }).id;
    await svc(['requests', 'reply', requestId, '--message', 'Fixed, thanks']);
    await svc(['requests', 'resolve', requestId]);
    await svc(['requests', 'reopen', requestId]);

    // deploy.*: a deploy (started, succeeded), a promotion, and one whose upload never finishes.
    await writeFile(join(directory, 'index.html'), page('Home'));
    const { deploy } = await svc(['deploy', '--environment', 'production']);
    await svc(['deploys', 'promote', (deploy as { id: string }).id, '--to', 'staging']);
    const content = Buffer.from(page('Half'));
    const stalled = await fetch(`${cli.url}/api/cli/projects/schemas/site/deploys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${cli.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ environment: 'production', files: [{ path: 'index.html', sha256: createHash('sha256').update(content).digest('hex'), size: content.length }] }),
    });
    expect(stalled.status).toBe(200);

    const events = await eventually(
      () => Promise.resolve(delivered()),
      (list) => eventTypes.every((type) => list.some((event) => event.type === type)),
      'one delivery of every event type',
      60_000,
    );
    const found: string[] = [];
    for (const event of events) found.push(...(await problems(event)));
    expect(found).toEqual([]);
    expect(new Set(events.map((event) => event.type))).toEqual(new Set(eventTypes));
  }, 120_000);

  it('a test event and the tombstone a resend sends after an erasure validate too', async () => {
    for (const type of ['request.replied', 'deploy.promoted', 'form.submission.spam']) {
      const before = delivered().length;
      const { webhooks } = await svc(['webhooks', 'list']);
      const id = (webhooks as { id: string; url: string }[]).find((webhook) => webhook.url.endsWith('/all'))!.id;
      await svc(['webhooks', 'test', id, '--event', type]);
      const [sample] = (await eventually(() => Promise.resolve(delivered().slice(before)), (list) => list.length > 0, `the test ${type}`)).filter((event) => event.type === type);
      expect(await problems(sample!)).toEqual([]);
    }

    // The request.created delivery of a request deleted since: a resend sends its tombstone.
    const { requests } = await svc(['requests', 'list', '--status', 'all']);
    const requestId = (requests as { id: string }[])[0]!.id;
    const { deliveries } = await svc(['deliveries', 'list', '--status', 'succeeded']);
    await svc(['requests', 'delete', requestId, '--yes']);
    const created = delivered().find((event) => event.type === 'request.created' && (event.body['data'] as { request: { id: string } }).request.id === requestId)!;
    const delivery = (deliveries as { id: string; eventId: string }[]).find((item) => item.eventId === created.body['id'])!;
    const before = delivered().length;
    await svc(['deliveries', 'resend', delivery.id]);
    const [tombstone] = await eventually(() => Promise.resolve(delivered().slice(before)), (list) => list.length > 0, 'the resent request.created');
    expect(tombstone!.body).toMatchObject({ id: created.body['id'], type: 'request.created', data: { request: { id: requestId, deletedAt: expect.any(String) } } });
    expect(JSON.stringify(tombstone!.body)).not.toContain('The price is wrong');
    expect(await problems(tombstone!)).toEqual([]);
  }, 60_000);

  it('answers 404 in the documented shape for a type that is not in the catalog', async () => {
    for (const path of ['/schema/events/form.submission.updated.json', '/schema/events/request.deleted.json', '/schema/events/form.submission.created', '/schema/events/']) {
      const answer = await request(`${cli.url}${path}`);
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).toMatchObject({ ok: false, error: 'not_found' });
    }
    const unknown = await request(`${cli.url}/schema/events/request.deleted.json`);
    expect((unknown.body as { message: string }).message).toContain('form.submission.created');
  });
});
