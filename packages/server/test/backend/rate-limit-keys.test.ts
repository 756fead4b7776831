import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { useBackendSuite } from '@svc/testkit/vitest';
import { createForm, createWidgetProject, eventually, postJson, request, selectBackend } from '@svc/testkit';

const backend = await selectBackend();

// Regression of the third adversarial test: past --rate-limit-keys every newcomer was counted
// under one key shared by the whole instance, so a flood of addresses made every new visitor
// of every form and every Pinpoints key get 429, and the failed-authentication limit checked
// another key than it counted. Now each limit drops its oldest windows instead.
describe.runIf(backend.available)(`the rate limiters under a flood of client addresses on ${backend.name}`, () => {
  const suite = useBackendSuite({ args: ['--trust-proxy', '--rate-limit-keys', '5'] });

  const flooders = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? `198.51.100.${i + 1}` : `2001:db8:9:${i.toString(16)}::1`));
  const pinpointsRequest = (project: { key: string }, site: string, client: string) => {
    const body = new FormData();
    body.set('comment', 'The price is wrong');
    body.set('url', `https://${site}/pricing`);
    return request(`${suite.url}/api/p/${project.key}/requests`, { method: 'POST', headers: { origin: `https://${site}`, 'x-forwarded-for': client }, body });
  };

  it('answers a new visitor of another project 200 on its form and its Pinpoints after the flood', async () => {
    const flooded = await createForm(suite.store);
    const floodedWidget = await createWidgetProject(suite.store, { domains: { staging: ['flooded.example.test'] } });
    for (const client of flooders) {
      // Body-less posts are refused (415, 422) but counted, as the flood of the adversarial test.
      expect((await request(`${suite.url}/api/f/${flooded.endpointId}`, { method: 'POST', headers: { 'x-forwarded-for': client } })).status).toBe(415);
      const pinpoints = await request(`${suite.url}/api/p/${floodedWidget.key}/requests`, { method: 'POST', headers: { origin: 'https://flooded.example.test', 'x-forwarded-for': client } });
      expect(pinpoints.status).toBe(415);
    }

    const form = await createForm(suite.store);
    const widget = await createWidgetProject(suite.store, { domains: { staging: ['visited.example.test'] } });
    const visitor = '203.0.113.50';
    const submitted = await postJson(`${suite.url}/api/f/${form.endpointId}`, { message: 'hello' }, { 'x-forwarded-for': visitor });
    expect(submitted.status, submitted.text).toBe(200);
    expect(submitted.headers.get('ratelimit')).toMatch(/^"form";r=29;t=\d+$/);
    const reported = await pinpointsRequest(widget, 'visited.example.test', visitor);
    expect(reported.status, reported.text).toBe(200);
    expect(reported.headers.get('ratelimit')).toMatch(/^"form";r=29;t=\d+$/);
    // A flooder is still counted on its own, from where its window was or from one.
    const again = await postJson(`${suite.url}/api/f/${form.endpointId}`, { message: 'again' }, { 'x-forwarded-for': flooders[0]! });
    expect(again.status).toBe(200);
  });

  it('refuses the 21st wrong token from a new address with 429 after a flood of wrong tokens from others', async () => {
    const whoami = (token: string, client: string) => request(`${suite.url}/api/cli/token`, { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': client } });
    for (const client of flooders) expect((await whoami('svc_flood', client)).status).toBe(401);
    const guesser = '192.0.2.99';
    for (let attempt = 1; attempt <= 20; attempt++) expect((await whoami(`svc_guess_${attempt}`, guesser)).status, `attempt ${attempt}`).toBe(401);
    const refused = await whoami('svc_guess_21', guesser);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(300);
    expect(refused.body).toEqual({ ok: false, error: 'rate_limited', message: expect.any(String), retryAfter, details: { retryAfter } });
    expect(refused.headers.get('ratelimit-policy')).toBe('"auth";q=20;w=300');
  });

  // The snapshots of SQLite (and of PostgreSQL without Redis) are written to `rate_limits`;
  // with Redis the windows are Redis keys, which Redis may save to disk as well.
  const persistedKeys = async (): Promise<string[]> => {
    const { redisUrl, redisPrefix } = suite.environment;
    if (redisUrl === undefined) return (await suite.store.db.selectFrom('rate_limits').select('key').execute()).map((row) => row.key);
    const redis = new Redis(redisUrl, { lazyConnect: true });
    await redis.connect();
    try {
      return await redis.keys(`${redisPrefix}rl:*`);
    } finally {
      redis.disconnect();
    }
  };

  it('persists no client address in rate-limit keys, for a project with storeIp: false as for every other', async () => {
    const widget = await createWidgetProject(suite.store, { pinpoints: { storeIp: false }, domains: { staging: ['private.example.test'] } });
    const form = await createForm(suite.store);
    const clients = ['192.0.2.201', '2001:db8:abcd:12::7'];
    for (const client of clients) {
      expect((await pinpointsRequest(widget, 'private.example.test', client)).status).toBe(200);
      expect((await postJson(`${suite.url}/api/f/${form.endpointId}`, { message: 'hi' }, { 'x-forwarded-for': client })).status).toBe(200);
    }
    const keys = await eventually(persistedKeys, (found) => found.filter((key) => key.includes(widget.projectId) || key.includes(form.formId)).length === 4, 'the windows of both clients to be saved');
    expect(keys.join('\n')).not.toMatch(/192\.0\.2\.201|2001:db8:abcd/);
  });
});
