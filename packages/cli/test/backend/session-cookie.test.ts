// The settings area behind an https base URL: its session cookie is `__Host-` prefixed, so
// no other host (a deploy's preview on a sibling domain) can set or shadow it (docs/settings.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTestServer, PageSession, selectBackend, startCliTestServer } from '@svc/testkit';

const backend = await selectBackend();

describe.runIf(backend.available)(`the session cookie behind an https base URL on ${backend.name}`, () => {
  let cli: CliTestServer;

  beforeAll(async () => {
    cli = await startCliTestServer(['--base-url', 'https://svc.example.test']);
  });
  afterAll(async () => {
    await cli?.stop();
  });

  it('is named __Host-svc_session: Secure, Path=/, no Domain, HttpOnly, SameSite=Lax', async () => {
    const session = new PageSession(cli.url);
    const answer = await session.signIn(cli.adminToken);
    expect([answer.status, answer.headers.get('location')]).toEqual([303, '/settings']);
    const [line, ...others] = answer.headers.getSetCookie();
    expect(others).toEqual([]);
    expect(line).toMatch(/^__Host-svc_session=[A-Za-z0-9_-]{40,};/);
    const attributes = line!.split(';').slice(1).map((attribute) => attribute.trim().toLowerCase());
    expect(attributes).toEqual(expect.arrayContaining(['path=/', 'httponly', 'secure', 'samesite=lax']));
    expect(attributes.some((attribute) => attribute.startsWith('domain='))).toBe(false);
    expect((await session.get('/settings')).status).toBe(200);
  });

  it('takes no session from a svc_session cookie, and none at all when one is sent beside the __Host- cookie', async () => {
    const session = new PageSession(cli.url);
    await session.signIn(cli.adminToken);
    const id = session.sessionCookie!.split('=')[1]!;
    expect((await session.get('/settings', { cookie: `__Host-svc_session=${id}` })).status).toBe(200);
    const plain = await session.get('/settings', { cookie: `svc_session=${id}` });
    expect([plain.status, plain.headers.get('location')]).toEqual([303, '/login?next=%2Fsettings']);
    for (const cookie of [`svc_session=${id}; __Host-svc_session=${id}`, `__Host-svc_session=${id}; svc_session=x`, `__Host-svc_session=${id}; __Host-svc_session=${id}`]) {
      const page = await session.get('/settings', { cookie });
      expect([page.status, page.headers.get('location')], cookie).toEqual([303, '/login?next=%2Fsettings&cookies=several']);
    }
  });

  it('signs out by clearing the __Host- cookie and ending the session', async () => {
    const session = new PageSession(cli.url);
    await session.signIn(cli.adminToken);
    const cookie = session.sessionCookie!;
    const csrf = await session.csrf();
    const out = await session.post('/logout', { _csrf: csrf });
    expect([out.status, out.headers.get('location')]).toEqual([303, '/login?signedOut']);
    expect(out.headers.getSetCookie().join('\n')).toMatch(/^__Host-svc_session=;.*Secure/im);
    expect(session.signedIn).toBe(false);
    expect((await session.get('/settings', { cookie })).status).toBe(303);
  });
});
