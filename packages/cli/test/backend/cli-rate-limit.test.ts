// Runs the real `svc` binary (packages/cli/dist) against a real `svc serve`: build first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '@svc/server/testing';
import { type CliTestServer, createToken, request, selectBackend, startCliTestServer, startSvc, type SvcProcess } from '@svc/testkit';

const backend = await selectBackend();

/** The specification's 600 requests a minute per token, lowered by `--cli-rate-limit` so tests need not wait. */
const limit = 4;

describe.runIf(backend.available)(`the CLI API rate limit on ${backend.name}`, () => {
  let cli: CliTestServer;
  let store: Store;

  beforeAll(async () => {
    cli = await startCliTestServer(['--cli-rate-limit', `${limit}/1m`]);
    store = await cli.environment.openStore();
  });
  afterAll(async () => {
    await store?.close();
    await cli?.stop();
  });

  /** A fresh token with a count of its own, made in the store so no other token's count is used. */
  const newToken = (): Promise<string> => createToken(store, 'rate-limited');
  const whoami = (token: string, base = cli.url) => request(`${base}/api/cli/token`, { headers: { authorization: `Bearer ${token}` } });

  it(`allows ${limit} requests per token per window, then exits 1 with rate_limited and when to retry`, async () => {
    const token = await newToken();
    for (let i = 0; i < limit; i++) expect((await cli.svc(['tokens', 'list', '--json'], { token })).code).toBe(0);
    const human = await cli.svc(['tokens', 'list'], { token });
    expect(human.code).toBe(1);
    expect(human.stderr).toMatch(new RegExp(`^error too many requests with this token \\(the limit is ${limit} per 60 s\\); retry in \\d+ s\\n$`));
    const json = await cli.svc(['tokens', 'list', '--json'], { token });
    expect(json.code).toBe(1);
    expect(json.json()).toEqual({
      ok: false,
      error: { code: 'rate_limited', message: expect.stringContaining('too many requests'), details: { retryAfter: expect.any(Number) } },
    });

    // Another token is not affected.
    expect((await cli.svc(['tokens', 'list', '--json'], { token: await newToken() })).code).toBe(0);
  });

  it('answers with RateLimit headers, then 429 with retry-after and the error body', async () => {
    const token = await newToken();
    const first = await whoami(token);
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-policy')).toBe(`"cli";q=${limit};w=60`);
    expect(first.headers.get('ratelimit')).toMatch(new RegExp(`^"cli";r=${limit - 1};t=\\d+$`));
    for (let i = 1; i < limit; i++) expect((await whoami(token)).status).toBe(200);
    const limited = await whoami(token);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.body).toEqual({ ok: false, error: 'rate_limited', message: expect.any(String), retryAfter, details: { retryAfter } });
    expect(limited.headers.get('ratelimit')).toBe(`"cli";r=0;t=${retryAfter}`);
  });

  it('does not count requests without a valid token; they get 401 unauthorized', async () => {
    for (let i = 0; i < limit + 2; i++) {
      const refused = await whoami('svc_wrong');
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ ok: false, error: 'unauthorized', message: 'the token is unknown or revoked' });
      expect(refused.headers.get('www-authenticate')).toBe('Bearer realm="svc"');
    }
    const missing = await request(`${cli.url}/api/cli/token`);
    expect(missing.status).toBe(401);
    expect((await whoami(await newToken())).status).toBe(200);
  });

  it.runIf(backend.name === 'postgres')('shares the count between instances through Redis', async () => {
    const second: SvcProcess = await startSvc({
      args: [...cli.environment.serverArgs, '--cli-rate-limit', `${limit}/1m`],
      env: { SVC_BOOTSTRAP_TOKEN: cli.adminToken },
    });
    try {
      const token = await newToken();
      for (let i = 0; i < limit; i++) {
        const answer = await whoami(token, i % 2 === 0 ? cli.url : second.url);
        expect(answer.status, answer.text).toBe(200);
      }
      expect((await whoami(token, cli.url)).status).toBe(429);
      expect((await whoami(token, second.url)).status).toBe(429);
      const viaCli = await cli.svc(['tokens', 'list', '--json'], { token, env: { SVC_API_URL: second.url } });
      expect(viaCli.json()).toMatchObject({ error: { code: 'rate_limited' } });
    } finally {
      expect(await second.stop()).toBe(0);
    }
  });
});

describe.runIf(backend.available)(`failed authentications per client address on ${backend.name}`, () => {
  /** The default is 20 per 5 minutes; lowered so the test sends few requests. */
  const failures = 5;
  let cli: CliTestServer;

  beforeAll(async () => {
    cli = await startCliTestServer(['--auth-failure-limit', `${failures}/1m`]);
  });
  afterAll(async () => {
    await cli?.stop();
  });

  const whoami = (token: string) => request(`${cli.url}/api/cli/token`, { headers: { authorization: `Bearer ${token}` } });

  it('counts only failures, together for the CLI API and /login, then answers 429 before looking any token up', async () => {
    for (let i = 0; i < 10; i++) expect((await whoami(cli.adminToken)).status).toBe(200);
    for (let i = 0; i < failures - 1; i++) expect((await whoami(`svc_guess_${i}`)).status).toBe(401);
    const login = await fetch(`${cli.url}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: cli.url },
      body: new URLSearchParams({ token: 'svc_guess_on_the_page' }).toString(),
    });
    expect(login.status).toBe(401);

    const refused = await whoami('svc_guess_more');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ ok: false, error: 'rate_limited', retryAfter: expect.any(Number) });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('ratelimit-policy')).toBe(`"auth";q=${failures};w=60`);
    // The address is refused before any lookup, so even a good token waits.
    expect((await whoami(cli.adminToken)).status).toBe(429);
    const page = await fetch(`${cli.url}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: cli.url },
      body: new URLSearchParams({ token: cli.adminToken }).toString(),
    });
    expect(page.status).toBe(429);
    const cliRun = await cli.svc(['tokens', 'list', '--json']);
    expect(cliRun.json()).toMatchObject({ ok: false, error: { code: 'rate_limited', details: { retryAfter: expect.any(Number) } } });
  });
});
