import { describe, expect, it } from 'vitest';
import { useBackendSuite } from '@svc/testkit/vitest';
import { createWidgetProject, request, selectBackend, type WidgetProjectFixture } from '@svc/testkit';

const backend = await selectBackend();

/** The smallest valid PNG (1×1, transparent), as the widget would send a screenshot. */
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

describe.runIf(backend.available)(`the Pinpoints widget API on ${backend.name}`, () => {
  const suite = useBackendSuite({ args: ['--trust-proxy', '--rate-limit', '4/1m'] });

  const base = (project: WidgetProjectFixture) => `${suite.server.url}/api/p/${project.key}`;
  const visitorForm = (fields: Record<string, string>, screenshot: Buffer | null = png) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.set(name, value);
    if (screenshot) form.set('screenshot', new Blob([new Uint8Array(screenshot)], { type: 'image/png' }), 'screenshot.png');
    return form;
  };
  const send = (project: WidgetProjectFixture, fields: Record<string, string>, headers: Record<string, string> = {}, screenshot: Buffer | null = png) =>
    request(`${base(project)}/requests`, { method: 'POST', headers, body: visitorForm(fields, screenshot) });
  const rows = (project: WidgetProjectFixture) => suite.store.db.selectFrom('requests').selectAll().where('project_id', '=', project.projectId).execute();
  const events = (project: WidgetProjectFixture) => suite.store.db.selectFrom('events').selectAll().where('project_id', '=', project.projectId).execute();
  // Hostnames belong to one project each: every test names its own sites.
  let sites = 0;
  const site = () => {
    sites += 1;
    return { www: `www${sites}.example.test`, staging: `staging${sites}.example.test` };
  };
  const sample = { comment: 'The price is wrong', url: 'https://staging.example.test/pricing', selector: 'main > h1', viewport: '1280x720' };

  it('stores a request with its screenshot and writes request.created, with CORS for the page that sent it', async () => {
    const { www, staging } = site();
    const project = await createWidgetProject(suite.store, { domains: { production: [www], staging: [staging] } });
    const answer = await send(project, { ...sample, name: 'Ada', email: 'ada@example.test' }, { origin: `https://${staging}`, 'x-forwarded-for': '203.0.113.77' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ ok: true, id: expect.stringMatching(/^req_/), readToken: expect.any(String) });
    expect(answer.headers.get('access-control-allow-origin')).toBe(`https://${staging}`);
    expect(answer.headers.get('ratelimit')).toMatch(/r=3/);
    const [row] = await rows(project);
    expect(row).toMatchObject({ environment: 'staging', status: 'open', comment: sample.comment, url: sample.url, selector: 'main > h1', name: 'Ada', client_ip: '203.0.113.0', screenshot_size: png.length });
    expect(row!.read_token_hash).not.toContain((answer.body as { readToken: string }).readToken);
    const [event] = await events(project);
    expect(event!.type).toBe('request.created');
    expect(JSON.parse(event!.payload)).toMatchObject({
      type: 'request.created',
      workspace: project.workspace,
      project: 'site',
      data: { request: { id: row!.id, environment: 'staging', url: sample.url, selector: 'main > h1', comment: sample.comment, ip: '203.0.113.0', screenshot: { size: png.length, contentType: 'image/png', sha256: row!.screenshot_sha256 } } },
    });
  });

  it('answers 404 for an unknown key, and 403 forbidden_origin for a page on another site', async () => {
    const project = await createWidgetProject(suite.store, { domains: { staging: [site().staging] } });
    const unknown = await request(`${suite.server.url}/api/p/pk_000000000000000000000000/settings?environment=staging`);
    expect([unknown.status, unknown.body]).toEqual([404, { ok: false, error: 'not_found' }]);
    const foreign = await send(project, sample, { origin: 'https://evil.example.test' });
    expect([foreign.status, foreign.body]).toEqual([403, { ok: false, error: 'forbidden_origin' }]);
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const settings = await request(`${base(project)}/settings`, { headers: { origin: 'https://evil.example.test' } });
    expect(settings.status).toBe(403);
    // A developer's own machine is always allowed.
    const local = await send(project, { ...sample, environment: 'development' }, { origin: 'http://localhost:5173' });
    expect(local.status).toBe(200);
    expect(await rows(project)).toHaveLength(1);
  });

  it('tells the widget where it is on: production off and staging on by default, the project\'s redactions with it', async () => {
    const { www, staging } = site();
    const project = await createWidgetProject(suite.store, { pinpoints: { redact: ['.card-number'] }, domains: { production: [www], staging: [staging] } });
    const settings = async (query: string, origin?: string) => (await request(`${base(project)}/settings?${query}`, origin ? { headers: { origin } } : {})).body;
    expect(await settings('environment=staging')).toEqual({ ok: true, enabled: true, redact: ['.card-number'] });
    expect(await settings('environment=production')).toEqual({ ok: true, enabled: false, redact: [] });
    expect(await settings(`host=${staging}`, `https://${staging}`)).toEqual({ ok: true, enabled: true, redact: ['.card-number'] });
    expect(await settings(`host=${www}`, `https://${www}`)).toEqual({ ok: true, enabled: false, redact: [] });
    expect(await settings('host=localhost', 'http://localhost:3000')).toEqual({ ok: true, enabled: true, redact: ['.card-number'] });
    expect((await request(`${base(project)}/settings?environment=qa`)).status).toBe(422);
  });

  it('refuses a request where the widget is off with 403 pinpoints_disabled, keeping nothing', async () => {
    const { www, staging } = site();
    const project = await createWidgetProject(suite.store, { pinpoints: { staging: false }, domains: { production: [www], staging: [staging] } });
    const fromProduction = await send(project, { ...sample, url: `https://${www}/` }, { origin: `https://${www}` });
    expect([fromProduction.status, fromProduction.body]).toEqual([403, { ok: false, error: 'pinpoints_disabled' }]);
    const stagingOff = await send(project, sample, { origin: `https://${staging}` });
    expect(stagingOff.status).toBe(403);
    expect(stagingOff.headers.get('access-control-allow-origin')).toBe(`https://${staging}`);
    expect(await rows(project)).toEqual([]);
  });

  it('answers 422 with every field problem, and 413 for a screenshot over 5 MiB', async () => {
    const project = await createWidgetProject(suite.store);
    const bad = await send(project, { comment: ' ', url: 'javascript:alert(1)', email: 'nope', environment: 'qa', viewport: 'big' }, {}, Buffer.from('GIF89a not a png'));
    expect(bad.status).toBe(422);
    expect((bad.body as { errors: Record<string, string> }).errors).toEqual({
      comment: 'must not be empty',
      url: 'must be an http or https URL',
      email: 'must be an email address',
      environment: 'must be production, staging or development',
      viewport: 'must be WIDTHxHEIGHT in pixels',
      screenshot: 'must be a PNG image',
    });
    const long = await send(project, { ...sample, comment: 'x'.repeat(5001), environment: 'staging' });
    expect((long.body as { errors: Record<string, string> }).errors).toEqual({ comment: 'must be at most 5000 characters' });
    const huge = Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024)]);
    const tooLarge = await send(project, { ...sample, environment: 'staging' }, {}, huge);
    expect([tooLarge.status, (tooLarge.body as { error: string }).error]).toEqual([413, 'payload_too_large']);
    expect(await rows(project)).toEqual([]);
  });

  it("keeps the picked element's box with the viewport it was measured in, in the inbox and the event; refuses one out of shape or without a viewport", async () => {
    const project = await createWidgetProject(suite.store);
    const kept = await send(project, { ...sample, environment: 'staging', elementBox: '-12,340,600,48' });
    expect(kept.status).toBe(200);
    const [row] = await rows(project);
    expect(row).toMatchObject({ viewport: '1280x720', element_x: -12, element_y: 340, element_width: 600, element_height: 48 });
    const [event] = await events(project);
    expect(JSON.parse(event!.payload)).toMatchObject({ data: { request: { viewport: '1280x720', elementBox: { x: -12, y: 340, width: 600, height: 48 } } } });

    const { viewport: _viewport, ...withoutViewport } = sample;
    const alone = await send(project, { ...withoutViewport, environment: 'staging', elementBox: '0,0,10,10' });
    expect([alone.status, (alone.body as { errors: Record<string, string> }).errors]).toEqual([422, { elementBox: 'needs the viewport it was measured in' }]);
    const empty = await send(project, { ...sample, environment: 'staging', elementBox: '4,4,0,10' });
    expect((empty.body as { errors: Record<string, string> }).errors).toEqual({ elementBox: 'must be X,Y,WIDTH,HEIGHT in whole pixels, width and height at least 1' });
    expect(await rows(project)).toHaveLength(1);
  });

  it('limits each visitor like the form endpoint: 429 with retry-after and RateLimit headers', async () => {
    const project = await createWidgetProject(suite.store);
    const fields = { ...sample, environment: 'staging' };
    const headers = { 'x-forwarded-for': '198.51.100.9' };
    for (let attempt = 0; attempt < 4; attempt++) expect((await send(project, fields, headers, null)).status).toBe(200);
    const limited = await send(project, fields, headers, null);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ ok: false, error: 'rate_limited', retryAfter: expect.any(Number) });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('ratelimit')).toMatch(/r=0/);
    expect(limited.headers.get('ratelimit-policy')).toMatch(/q=4;w=60/);
    expect((await send(project, fields, { 'x-forwarded-for': '198.51.100.10' }, null)).status).toBe(200);
  });

  it('keeps a honeypot request as spam, answered alike, with no event', async () => {
    const project = await createWidgetProject(suite.store);
    const spam = await send(project, { ...sample, environment: 'staging' }, { 'x-service-honeypot': 'filled' });
    expect(spam.status).toBe(200);
    expect(spam.body).toEqual({ ok: true, id: expect.stringMatching(/^req_/), readToken: expect.any(String) });
    expect((await rows(project)).map((row) => row.status)).toEqual(['spam']);
    expect(await events(project)).toEqual([]);
  });

  it('with storeIp false keeps the visitor IP out of the database and the event, while still limiting it', async () => {
    const project = await createWidgetProject(suite.store, { pinpoints: { storeIp: false } });
    const ip = '192.0.2.201';
    const answer = await send(project, { ...sample, environment: 'staging' }, { 'x-forwarded-for': ip });
    expect(answer.status).toBe(200);
    const [row] = await rows(project);
    expect(row!.client_ip).toBeNull();
    expect(JSON.stringify(row)).not.toContain('192.0.2.');
    const [event] = await events(project);
    expect(event!.payload).not.toContain('192.0.2.');
    expect(JSON.parse(event!.payload).data.request).not.toHaveProperty('ip');
    expect(answer.headers.get('ratelimit')).toMatch(/r=3/);
  });

  it('shows the reporter their request and its status with the read token, and nobody without it', async () => {
    const project = await createWidgetProject(suite.store);
    const sent = (await send(project, { ...sample, environment: 'staging' })).body as { id: string; readToken: string };
    const thread = await request(`${base(project)}/requests/${sent.id}?token=${sent.readToken}`);
    expect(thread.body).toEqual({ ok: true, request: { id: sent.id, status: 'open', comment: sample.comment, createdAt: expect.any(String), replies: [] } });
    expect((await request(`${base(project)}/requests/${sent.id}?token=${sent.readToken.slice(1)}x`)).status).toBe(404);
    expect((await request(`${base(project)}/requests/${sent.id}`)).status).toBe(404);
    const other = await createWidgetProject(suite.store);
    expect((await request(`${base(other)}/requests/${sent.id}?token=${sent.readToken}`)).status).toBe(404);
  });

  it('serves the widget script with an ETag, 304 for a current copy, to any origin', async () => {
    const script = await request(`${suite.server.url}/pinpoints.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('access-control-allow-origin')).toBe('*');
    const etag = script.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await request(`${suite.server.url}/pinpoints.js`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    const capture = /pinpoints-capture\.[0-9a-f]{16}\.js/.exec(script.text)?.[0];
    expect(capture).toBeDefined();
    const module = await request(`${suite.server.url}/${capture}`);
    expect([module.status, module.headers.get('cache-control')]).toEqual([200, 'public, max-age=31536000, immutable']);
  });
});
