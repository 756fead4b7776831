// Pinpoints requests are personal data (docs/privacy.md): `svc requests delete`, requests in
// `svc submissions erase --email`, and per-project request retention, through the real `svc`
// binary against a real `svc serve`. Build first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '@svc/server';
import { type CliTestServer, createProject, eventually, postJson, request, selectBackend, startCliTestServer, startReceiver, type WebhookReceiver } from '@svc/testkit';

const backend = await selectBackend();
const day = 86_400_000;

/** A PNG as the server checks it (by its signature), different contents for each `variant`. */
function png(variant: number): Buffer {
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from(`IHDR variant ${variant}`)]);
}

describe.runIf(backend.available)(`requests as personal data on ${backend.name}`, () => {
  let cli: CliTestServer;
  let receiver: WebhookReceiver;
  let store: Store;
  let directory: string;
  let key: string;

  beforeAll(async () => {
    // Failed attempts wait an hour, so a delivery to /fail stays pending; maintenance runs every 200 ms.
    cli = await startCliTestServer(['--allow-private-targets', '--retry-schedule', '1h', '--maintenance-interval', '200ms']);
    receiver = await startReceiver((received) => (received.path === '/fail' ? { status: 500, body: 'echo: the price is wrong' } : { status: 204 }));
    store = await cli.environment.openStore();
    directory = await createProject(cli, 'inbox', 'site', { forms: [{ slug: 'contact', name: 'Contact' }] });
    key = (await svc(['pinpoints', 'snippet'])).key as string;
    for (const path of ['/ok', '/fail']) await svc(['webhooks', 'add', '--url', `${receiver.url}${path}`, '--events', 'request.*']);
  });
  afterAll(async () => {
    await store?.close();
    await cli?.stop();
    await receiver?.close();
  });

  async function svc(args: string[], expected = 0): Promise<Record<string, unknown>> {
    const result = await cli.svc([...args, '--json'], { cwd: directory });
    expect(result.code, `${args.join(' ')}: ${result.stdout}${result.stderr}`).toBe(expected);
    return result.json();
  }
  const send = async (fields: Record<string, string>, screenshot: Buffer | null, headers: Record<string, string> = {}): Promise<string> => {
    const form = new FormData();
    for (const [name, value] of Object.entries({ url: 'http://localhost:5173/pricing', environment: 'development', ...fields })) form.set(name, value);
    if (screenshot) form.set('screenshot', new Blob([new Uint8Array(screenshot)], { type: 'image/png' }), 'screenshot.png');
    const answer = await request(`${cli.url}/api/p/${key}/requests`, { method: 'POST', headers: { origin: 'http://localhost:5173', ...headers }, body: form });
    expect(answer.status, answer.text).toBe(200);
    return (answer.body as { id: string }).id;
  };
  const sha256Of = async (id: string) => (await store.db.selectFrom('requests').select('screenshot_sha256').where('id', '=', id).executeTakeFirstOrThrow()).screenshot_sha256!;
  const stored = async (sha256: string) => (await store.files.open(sha256)) !== null;
  const requestEventsOf = async (id: string) => (await store.db.selectFrom('events').select(['id', 'type', 'payload']).where('type', 'like', 'request.%').execute()).filter((event) => event.payload.includes(id));

  it('svc requests delete removes the request, its replies and screenshot, and every copy its events kept, sending no event', async () => {
    const shared = png(3);
    const id = await send({ comment: 'The price is wrong', name: 'Ada', email: 'ada@example.com' }, shared);
    const twin = await send({ comment: 'Same screenshot, another visitor' }, shared);
    await svc(['requests', 'reply', id, '--message', 'Looking into it']);
    await receiver.waitFor(3, (received) => received.path === '/fail');
    const sha256 = await sha256Of(id);
    // The deliveries to /fail wait an hour for their retry; those to /ok may be in flight still, so they are left out.
    const pending = await store.db
      .selectFrom('deliveries')
      .innerJoin('events', 'events.id', 'deliveries.event_id')
      .innerJoin('webhooks', 'webhooks.id', 'deliveries.webhook_id')
      .select(['deliveries.id', 'deliveries.status'])
      .where('events.payload', 'like', `%${id}%`)
      .where('webhooks.url', 'like', '%/fail')
      .where('deliveries.status', '=', 'pending')
      .execute();
    expect(pending.length).toBeGreaterThan(0);
    const eventsBefore = await store.db.selectFrom('events').select('id').execute();

    expect(await svc(['requests', 'delete', id, '--yes'])).toEqual({ ok: true, deleted: { id } });

    expect(await store.db.selectFrom('requests').select('id').where('id', '=', id).execute()).toEqual([]);
    expect(await store.db.selectFrom('request_replies').select('id').where('request_id', '=', id).execute()).toEqual([]);
    // Its events keep a tombstone only: no comment, no reporter, no reply.
    const events = await requestEventsOf(id);
    expect(events.map((event) => event.type).sort()).toEqual(['request.created', 'request.replied']);
    for (const event of events) {
      expect(JSON.parse(event.payload)).toEqual({ id: event.id, type: event.type, createdAt: expect.any(String), workspace: 'inbox', project: 'site', data: { request: { id, createdAt: expect.any(String), deletedAt: expect.any(String) } } });
    }
    // Pending deliveries are cancelled, and what receivers answered (which may echo the comment) is gone.
    for (const delivery of pending) {
      const row = await store.db.selectFrom('deliveries').select(['status', 'last_error']).where('id', '=', delivery.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ status: 'failed', last_error: 'cancelled: the request was deleted' });
      const bodies = await store.db.selectFrom('delivery_attempts').select('response_body').where('delivery_id', '=', delivery.id).execute();
      expect(bodies.every((attempt) => attempt.response_body === null)).toBe(true);
    }
    // No event for the deletion: the catalog has none.
    expect((await store.db.selectFrom('events').select('id').execute()).length).toBe(eventsBefore.length);
    // The screenshot stays while another request holds the same contents, and goes with the last.
    expect(await stored(sha256)).toBe(true);
    const screenshot = await cli.svc(['requests', 'screenshot', twin, '--output', `${directory}/twin.png`, '--json'], { cwd: directory });
    expect(screenshot.code, screenshot.stderr).toBe(0);
    await svc(['requests', 'delete', twin, '--yes']);
    expect(await stored(sha256)).toBe(false);

    const again = await svc(['requests', 'delete', id, '--yes'], 1);
    expect(again).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const human = await cli.svc(['requests', 'delete', await send({ comment: 'short-lived' }, null), '--yes'], { cwd: directory });
    expect([human.code, human.stdout.trim()]).toEqual([0, expect.stringMatching(/^Deleted request req_\w+, with its replies, its screenshot and every copy its events kept\.$/)]);
  }, 90_000);

  it('svc submissions erase --email erases the requests the address sent or that mention it, and says how many', async () => {
    const { forms } = await svc(['forms', 'list']);
    const formUrl = (forms as { url: string }[])[0]!.url;
    const submission = (await postJson(formUrl, { email: 'grace@example.com', message: 'Hi' })).body as { id: string };
    const sent = await send({ comment: 'Broken link', email: 'Grace@Example.com' }, png(5));
    const mentioned = await send({ comment: 'Please call grace@example.com about this' }, null);
    const spam = await send({ comment: 'spam', email: 'grace@example.com' }, null, { 'x-service-honeypot': '1' });
    const other = await send({ comment: 'Not hers', email: 'bob@example.com' }, null);
    const sha256 = await sha256Of(sent);

    const erased = await svc(['submissions', 'erase', '--email', 'grace@example.com', '--yes']);
    expect(erased).toMatchObject({ ok: true, email: 'grace@example.com', erased: 1, submissions: [{ id: submission.id, form: 'contact' }], erasedRequests: 3 });
    expect((erased.requests as { id: string }[]).map((item) => item.id).sort()).toEqual([sent, mentioned, spam].sort());
    expect((await store.db.selectFrom('requests').select('id').where('id', 'in', [sent, mentioned, spam, other]).execute()).map((row) => row.id)).toEqual([other]);
    expect(await stored(sha256)).toBe(false);
    for (const event of await requestEventsOf(sent)) expect(event.payload).not.toContain('Broken link');

    const human = await cli.svc(['submissions', 'erase', '--email', 'bob@example.com', '--yes'], { cwd: directory });
    expect([human.code, human.stdout]).toEqual([0, `Erased 0 submissions and 1 request holding bob@example.com.\nRequests: ${other}.\n`]);
    const none = await cli.svc(['submissions', 'erase', '--email', 'nobody@example.com', '--yes'], { cwd: directory });
    expect(none.stdout).toBe('No submission or request of this project holds nobody@example.com.\n');
  }, 90_000);

  it('svc requests set --retention keeps requests for a time; the maintenance job removes older ones with their screenshots', async () => {
    expect(await svc(['requests', 'set'])).toEqual({ ok: true, settings: { retentionSeconds: null }, changed: false });
    expect(await svc(['requests', 'set', '--retention', '30d'])).toEqual({ ok: true, settings: { retentionSeconds: 30 * 86_400 }, changed: true });
    expect(await svc(['requests', 'set', '--retention', '30d'])).toMatchObject({ changed: false });
    const human = await cli.svc(['requests', 'set'], { cwd: directory });
    expect(human.stdout).toBe('retention: requests are removed 30d after they arrive\n');
    expect(await svc(['requests', 'set', '--retention', '10s'], 1)).toMatchObject({ ok: false, error: { code: 'validation_failed' } });
    expect(await svc(['requests', 'set', '--retention', 'soon'], 2)).toMatchObject({ ok: false, error: { code: 'usage' } });

    const old = await send({ comment: 'An old request', email: 'old@example.com' }, png(7));
    const resolved = await send({ comment: 'An old resolved one' }, null);
    await svc(['requests', 'resolve', resolved]);
    const recent = await send({ comment: 'A recent request' }, null);
    const sha256 = await sha256Of(old);
    await store.db.updateTable('requests').set({ created_at: Date.now() - 31 * day }).where('id', 'in', [old, resolved]).execute();
    await eventually(
      () => store.db.selectFrom('requests').select('id').where('id', 'in', [old, resolved, recent]).execute(),
      (rows) => rows.length === 1,
      'the requests past the retention removed',
    );
    expect((await store.db.selectFrom('requests').select('id').where('id', 'in', [old, resolved, recent]).execute()).map((row) => row.id)).toEqual([recent]);
    await eventually(() => stored(sha256), (present) => !present, 'the old screenshot removed');

    expect(await svc(['requests', 'set', '--retention', 'none'])).toEqual({ ok: true, settings: { retentionSeconds: null }, changed: true });
  }, 90_000);
});
