// Stored contents are removed once nothing holds them (docs/privacy.md, "Files and who holds
// them"): a public request that fails leaves no bytes behind, and a sweep removes what nothing
// refers to past its grace, never what a request still being stored is about to refer to.
import { createHash, randomBytes } from 'node:crypto';
import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useBackendSuite } from '@svc/testkit/vitest';
import { createForm, createWidgetProject, eventually, type FormFixture, PageSession, postJson, request, selectBackend } from '@svc/testkit';

const backend = await selectBackend();
const sha256 = (content: Buffer) => createHash('sha256').update(content).digest('hex');
const hour = 3_600_000;

/** A PNG as far as the widget API checks (its signature), unique, of `size` bytes. */
const png = (size: number) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(size - 8)]);

describe.runIf(backend.available)(`stored contents nothing holds on ${backend.name}`, () => {
  // Files over 16 KiB are made durable before their submission; the sweep runs every 200 ms
  // with its default grace (an hour), so contents are made old by moving their time back.
  const suite = useBackendSuite({ args: ['--max-held-file-size', '16KiB', '--maintenance-interval', '200ms', '--retention-spam', '7d'] });

  const stored = async (content: Buffer) => (await suite.store.files.find(sha256(content))) !== null;
  const postFiles = (form: FormFixture, fields: Record<string, string>, files: Record<string, Buffer>, headers: Record<string, string> = {}) => {
    const body = new FormData();
    for (const [name, value] of Object.entries(fields)) body.set(name, value);
    for (const [name, content] of Object.entries(files)) body.set(name, new Blob([new Uint8Array(content)]), `${name}.bin`);
    return request(`${suite.url}/api/f/${form.endpointId}`, { method: 'POST', body, headers });
  };
  const sendRequest = (key: string, comment: string, screenshot: Buffer, headers: Record<string, string> = {}) => {
    const body = new FormData();
    for (const [name, value] of Object.entries({ comment, url: 'https://staging.example.test/', environment: 'staging' })) body.set(name, value);
    body.set('screenshot', new Blob([new Uint8Array(screenshot)], { type: 'image/png' }), 'screenshot.png');
    return request(`${suite.url}/api/p/${key}/requests`, { method: 'POST', body, headers });
  };
  /** Makes the database refuse rows of `table` whose `column` holds `marker`, as any failure of a row would. */
  const refuseRows = async (table: 'requests' | 'submissions', column: 'comment' | 'fields', marker: string) => {
    const name = `refuse_${table}_${randomBytes(3).toString('hex')}`;
    const when = `NEW.${column} LIKE '%${marker}%'`;
    if (backend.name === 'sqlite') {
      await sql.raw(`CREATE TRIGGER ${name} BEFORE INSERT ON ${table} WHEN ${when} BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`).execute(suite.store.db);
      return;
    }
    await sql.raw(`CREATE FUNCTION ${name}() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused by the test'; END $$ LANGUAGE plpgsql`).execute(suite.store.db);
    await sql.raw(`CREATE TRIGGER ${name} BEFORE INSERT ON ${table} FOR EACH ROW WHEN (${when}) EXECUTE FUNCTION ${name}()`).execute(suite.store.db);
  };
  /** Stores `content` as a request would, without anything referring to it; `held`: as a database row. */
  const storeAlone = async (content: Buffer, held = false) => {
    const staged = await suite.store.files.stage(Readable.from([content]), held ? { holdUpTo: 1024 * 1024 } : undefined);
    await staged.commit();
  };
  /** Moves the time the contents were last stored back by `ms`, wherever they are. */
  const age = async (content: Buffer, ms: number) => {
    const then = Date.now() - ms;
    await suite.store.db.updateTable('file_blobs').set({ created_at: then }).where('sha256', '=', sha256(content)).execute();
    if (backend.name === 'sqlite') await utimes(join(suite.environment.dataDir, 'files', sha256(content)), then / 1000, then / 1000).catch(() => undefined);
  };

  it('keeps no screenshot of a Pinpoints request whose record cannot be written', async () => {
    const project = await createWidgetProject(suite.store);
    await refuseRows('requests', 'comment', 'cannot be stored');
    const screenshot = png(40 * 1024);
    const failed = await sendRequest(project.key, 'this one cannot be stored', screenshot);
    expect(failed.status).toBe(500);
    expect(await stored(screenshot)).toBe(false);
    const fine = png(40 * 1024);
    expect((await sendRequest(project.key, 'this one is fine', fine)).status).toBe(200);
    expect(await stored(fine)).toBe(true);
  });

  it('keeps no file of a submission whose record cannot be written, nor of a replay carrying other files', async () => {
    const form = await createForm(suite.store);
    await refuseRows('submissions', 'fields', 'cannot be stored');
    const small = randomBytes(4 * 1024);
    const large = randomBytes(40 * 1024);
    const failed = await postFiles(form, { note: 'this one cannot be stored' }, { small, large });
    expect(failed.status).toBe(500);
    expect([await stored(small), await stored(large)]).toEqual([false, false]);

    const first = randomBytes(40 * 1024);
    const replayed = randomBytes(40 * 1024);
    const key = crypto.randomUUID();
    const original = await postFiles(form, { note: 'first' }, { doc: first }, { 'idempotency-key': key });
    const again = await postFiles(form, { note: 'again' }, { doc: replayed }, { 'idempotency-key': key });
    expect([again.status, again.headers.get('idempotent-replayed'), again.body]).toEqual([200, 'true', original.body]);
    expect([await stored(first), await stored(replayed)]).toEqual([true, false]);
  });

  it('sweeps contents nothing holds once past the grace, and keeps held ones and recent ones', async () => {
    const orphan = randomBytes(40 * 1024);
    const heldOrphan = randomBytes(2 * 1024);
    const recent = randomBytes(40 * 1024);
    await storeAlone(orphan);
    await storeAlone(heldOrphan, true);
    // Stored a moment ago by a request that has not written its record yet.
    await storeAlone(recent);

    const form = await createForm(suite.store);
    const submitted = randomBytes(40 * 1024);
    expect((await postFiles(form, { note: 'kept' }, { doc: submitted })).status).toBe(200);
    const project = await createWidgetProject(suite.store);
    const screenshot = png(30 * 1024);
    expect((await sendRequest(project.key, 'kept', screenshot)).status).toBe(200);
    const uploaded = randomBytes(40 * 1024);
    await storeAlone(uploaded);
    const workspace = await suite.store.db.selectFrom('projects').select('workspace_id').where('id', '=', project.projectId).executeTakeFirstOrThrow();
    await suite.store.db.insertInto('workspace_contents').values({ workspace_id: workspace.workspace_id, sha256: sha256(uploaded), created_at: Date.now() }).execute();
    for (const content of [orphan, heldOrphan, submitted, screenshot, uploaded]) await age(content, 2 * hour);

    await eventually(async () => [await stored(orphan), await stored(heldOrphan)], (left) => left.every((present) => !present), 'the sweep');
    for (const content of [recent, submitted, screenshot, uploaded]) expect(await stored(content)).toBe(true);
  });

  it('removes spam Pinpoints requests past --retention-spam with their screenshots, and keeps the inbox\'s', async () => {
    const project = await createWidgetProject(suite.store);
    const spamShot = png(20 * 1024);
    const keptShot = png(20 * 1024);
    const spam = await sendRequest(project.key, 'buy things', spamShot, { 'x-service-honeypot': '1' });
    const kept = await sendRequest(project.key, 'a real request', keptShot);
    const ids = [spam, kept].map((answer) => (answer.body as { id: string }).id);
    await suite.store.db.updateTable('requests').set({ created_at: Date.now() - 10 * 24 * hour }).where('id', 'in', ids).execute();

    const left = async () => ({ requests: await suite.store.db.selectFrom('requests').select('id').where('project_id', '=', project.projectId).execute(), spamShot: await stored(spamShot) });
    await eventually(left, (state) => state.requests.length === 1 && !state.spamShot, 'the retention job');
    expect(await left()).toEqual({ requests: [{ id: ids[1] }], spamShot: false });
    expect(await stored(keptShot)).toBe(true);
  });
});

describe.runIf(backend.available)(`the upload quota on ${backend.name}`, () => {
  const token = `svc_test_${randomBytes(16).toString('hex')}`;
  const suite = useBackendSuite({ args: ['--upload-quota', '100KiB'], env: { SVC_BOOTSTRAP_TOKEN: token } });

  it('refuses form files and screenshots past the project\'s quota with 413 quota_exceeded, still takes the rest, and the overview says so', async () => {
    const form = await createForm(suite.store);
    const post = (fields: Record<string, string>, files: Record<string, Buffer> = {}) => {
      const body = new FormData();
      for (const [name, value] of Object.entries(fields)) body.set(name, value);
      for (const [name, content] of Object.entries(files)) body.set(name, new Blob([new Uint8Array(content)]), `${name}.bin`);
      return request(`${suite.url}/api/f/${form.endpointId}`, { method: 'POST', body });
    };
    // The upload that crosses the quota is taken; the next is not.
    for (const name of ['first', 'crossing']) expect((await post({ name }, { doc: randomBytes(60 * 1024) })).status).toBe(200);
    const third = randomBytes(10 * 1024);
    const refused = await post({ name: 'third' }, { doc: third });
    expect([refused.status, refused.body]).toEqual([413, { ok: false, error: 'quota_exceeded', message: expect.stringContaining('quota of 100.0 KiB') }]);
    expect(await suite.store.files.find(sha256(third))).toBeNull();
    expect((await post({ name: 'no files' })).status).toBe(200);
    expect((await postJson(`${suite.url}/api/f/${form.endpointId}`, { name: 'json' })).status).toBe(200);

    const widget = await suite.store.db.selectFrom('projects').select('widget_key').where('id', '=', form.projectId).executeTakeFirstOrThrow();
    const visitor = (screenshot: Buffer | null) => {
      const body = new FormData();
      for (const [name, value] of Object.entries({ comment: 'Hello', url: 'https://staging.example.test/', environment: 'staging' })) body.set(name, value);
      if (screenshot) body.set('screenshot', new Blob([new Uint8Array(screenshot)], { type: 'image/png' }), 'screenshot.png');
      return request(`${suite.url}/api/p/${widget.widget_key}/requests`, { method: 'POST', body });
    };
    const shot = png(50 * 1024);
    const refusedShot = await visitor(shot);
    expect([refusedShot.status, (refusedShot.body as { error: string }).error]).toEqual([413, 'quota_exceeded']);
    expect(await suite.store.files.find(sha256(shot))).toBeNull();
    expect((await visitor(null)).status).toBe(200);

    const session = new PageSession(suite.url);
    expect((await session.signIn(token)).status).toBe(303);
    const overview = await session.get(`/settings/${form.workspace}/${form.project}`);
    expect(overview.text).toContain('Uploads are at their quota');
    expect(overview.text).toContain('This project keeps 120.0 KiB of form files and Pinpoints screenshots, of 100.0 KiB allowed.');
  });
});
