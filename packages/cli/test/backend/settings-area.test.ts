// Runs the real `svc` binary (packages/cli/dist) against a real `svc serve`: build first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTestServer, createProject, PageSession, selectBackend, signInForm, startCliTestServer } from '@svc/testkit';

const backend = await selectBackend();

/** The settings area over HTTP: sign-in, sessions, CSRF, scopes, escaping, downloads (docs/settings.md). */
describe.runIf(backend.available)(`the settings area on ${backend.name}`, () => {
  let cli: CliTestServer;
  let directory: string;
  let formUrl: string;
  const project = '/settings/agency/site';

  beforeAll(async () => {
    cli = await startCliTestServer(['--allow-private-targets']);
    directory = await createProject(cli, 'agency', 'site', { forms: [{ slug: 'contact', name: 'Contact' }] });
    formUrl = (await cli.svc(['forms', 'list', '--json'], { cwd: directory })).json<{ forms: { url: string }[] }>().forms[0]!.url;
  });
  afterAll(async () => {
    await cli?.stop();
  });

  const signedIn = async (token = cli.adminToken): Promise<PageSession> => {
    const session = new PageSession(cli.url);
    const answer = await session.signIn(token);
    expect(answer.status).toBe(303);
    return session;
  };

  it('shows the sign-in form with a Token field, and sends pages without a session there', async () => {
    const session = new PageSession(cli.url);
    const login = await session.get('/login');
    expect(login.status).toBe(200);
    expect(login.text).toContain('<label for="token">Token</label>');
    expect(login.text).toContain('Sign in</button>');
    const page = await session.get('/settings/agency/site/webhooks');
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe('/login?next=%2Fsettings%2Fagency%2Fsite%2Fwebhooks');
  });

  it('refuses a wrong token with 401 and the form again', async () => {
    const session = new PageSession(cli.url);
    const answer = await session.signIn('svc_not_a_real_token');
    expect(answer.status).toBe(401);
    expect(answer.text).toContain('unknown or revoked');
    expect(session.signedIn).toBe(false);
  });

  it('starts a session with a valid token: an HttpOnly, SameSite=Lax cookie and a redirect to /settings', async () => {
    const response = await fetch(`${cli.url}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: cli.url },
      body: new URLSearchParams({ token: cli.adminToken }).toString(),
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/settings');
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('svc_session='))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
  });

  it('ignores a `next` that a location header cannot carry (CR/LF), signing in to /settings instead of failing', async () => {
    const next = '/settings\r\nset-cookie: planted=1';
    const session = new PageSession(cli.url);
    const answer = await session.post('/login', { token: cli.adminToken, next });
    expect([answer.status, answer.headers.get('location')]).toEqual([303, '/settings']);
    expect(answer.headers.getSetCookie().join('\n')).not.toContain('planted');
    const again = await session.get(`/login?next=${encodeURIComponent(next)}`);
    expect([again.status, again.headers.get('location')]).toEqual([303, '/settings']);
  });

  it('treats a request carrying more than one session cookie as signed out, whichever comes first', async () => {
    const admin = await signedIn();
    const mine = admin.sessionCookie!;
    expect(mine).toMatch(/^svc_session=/);
    const tenant = await signedIn((await cli.svc(['tokens', 'create', '--workspace', 'agency', '--json'])).json<{ secret: string }>().secret);
    const tossed = tenant.sessionCookie!;
    expect((await admin.get('/settings/tokens', { cookie: mine })).status).toBe(200);
    // What a preview on a sibling host sends along once it set a cookie for the parent domain.
    for (const cookie of [`${tossed}; ${mine}`, `${mine}; ${tossed}`, `${mine}; svc_session=`, `${mine}; __Host-svc_session=x`, `theme=dark; ${mine}; ${mine}`]) {
      const page = await admin.get('/settings/tokens', { cookie });
      expect([page.status, page.headers.get('location')], cookie).toEqual([303, '/login?next=%2Fsettings%2Ftokens&cookies=several']);
    }
    // The sign-in page says why, and does not send a session it sees back to /settings: the
    // second cookie may be scoped to /settings only, which would make a loop.
    for (const [path, cookie] of [['/login', `${tossed}; ${mine}`], ['/login?next=%2Fsettings%2Ftokens&cookies=several', mine]] as const) {
      const login = await admin.get(path, { cookie });
      expect(login.status, path).toBe(200);
      expect(login.text).toContain('more than one session cookie');
      expect(login.text).toContain('<label for="token">Token</label>');
    }
    expect((await admin.get('/login?next=%2Fsettings%2Ftokens')).headers.get('location')).toBe('/settings/tokens');
    // The session itself is untouched: with one cookie again, it is there.
    expect((await admin.get('/settings/tokens')).status).toBe(200);
  });

  it('sends the security headers on every page', async () => {
    const session = await signedIn();
    const pages = [await new PageSession(cli.url).get('/login')];
    for (const path of ['/settings', project, `${project}/webhooks`, `${project}/forms/contact`, '/settings/tokens']) {
      const page = await session.get(path);
      expect(page.status, path).toBe(200);
      pages.push(page);
    }
    for (const page of pages) {
      const csp = page.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('referrer-policy')).toBe('same-origin');
      expect(page.text).not.toMatch(/<script>(?!<\/script>)|<script [^>]*>[^<]/);
    }
  });

  it('signs in once with an `svc open` link through its page\'s Sign in button, and refuses the link the second time', async () => {
    const open = await cli.svc(['open', '--json']);
    expect(open.code).toBe(0);
    const { url } = open.json<{ ok: boolean; url: string }>();
    expect(url).toMatch(new RegExp(`^${cli.url}/login/link/`));
    const session = new PageSession(cli.url);
    const first = await session.openSignInLink(url);
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/settings');
    expect((await session.get('/settings')).status).toBe(200);
    const again = await new PageSession(cli.url).get(new URL(url).pathname);
    expect(again.status).toBe(401);
    expect(again.text).toContain('expired or was already used');
  });

  it('shows who a link signs in as when it is opened, and never spends it with a GET', async () => {
    const scoped = (await cli.svc(['tokens', 'create', '--name', 'Laptop of Ada', '--workspace', 'agency', '--json'])).json<{ secret: string }>().secret;
    const { url } = (await cli.svc(['open', '--json'], { token: scoped })).json<{ url: string }>();
    const path = new URL(url).pathname;
    // A mail scanner, a link preview, a prefetch: each one a GET, none of them signs in.
    for (let opening = 0; opening < 3; opening++) {
      const scanner = await new PageSession(cli.url).get(path);
      expect(scanner.status).toBe(200);
      expect(scanner.headers.get('cache-control')).toBe('no-store');
      expect(scanner.headers.getSetCookie().join('\n')).not.toContain('svc_session');
      expect(scanner.text).toContain('<strong>Laptop of Ada</strong>');
      expect(scanner.text).toContain('the workspace <strong>agency</strong>');
      expect(scanner.text).toMatch(/<button type="submit" class="primary">\s*Sign in\s*<\/button>/);
    }
    const person = new PageSession(cli.url);
    const signedIn = await person.openSignInLink(url);
    expect([signedIn.status, signedIn.headers.get('location')]).toEqual([303, '/settings']);
    const projects = await person.get('/settings');
    expect(projects.status).toBe(200);
    expect(projects.text).toContain('agency');
    // A workspace token manages its workspace's tokens (docs/members.md).
    expect((await person.get('/settings/tokens')).status).toBe(200);
  });

  it('spends a link only with the form of the page that showed it: another site, or another browser\'s form, is refused (login CSRF)', async () => {
    const { url } = (await cli.svc(['open', '--json'])).json<{ url: string }>();
    const path = new URL(url).pathname;
    const attacker = new PageSession(cli.url);
    const attackerForm = signInForm((await attacker.get(path)).text)!;
    expect(attackerForm.action).toBe(path);
    const victim = new PageSession(cli.url);
    const cases = [
      await victim.post(path, {}),
      await victim.post(path, { _csrf: attackerForm.csrf }),
      await attacker.post(path, { _csrf: attackerForm.csrf }, { origin: 'https://evil.example' }),
    ];
    expect(cases.map((answer) => answer.status)).toEqual([403, 403, 403]);
    expect(victim.signedIn || attacker.signedIn).toBe(false);
    // None of them spent the link: its own page's form still signs in.
    const signedIn = await attacker.post(attackerForm.action, { _csrf: attackerForm.csrf });
    expect([signedIn.status, signedIn.headers.get('location')]).toEqual([303, '/settings']);
    expect(attacker.signedIn).toBe(true);
  });

  it('shows a workspace-scoped session only its own workspace: another workspace answers 404', async () => {
    await createProject(cli, 'other', 'secret-site', { forms: [{ slug: 'contact' }] });
    const scoped = (await cli.svc(['tokens', 'create', '--workspace', 'agency', '--json'])).json<{ secret: string }>().secret;
    const session = await signedIn(scoped);
    const list = await session.get('/settings');
    expect(list.text).toContain('agency');
    expect(list.text).not.toContain('secret-site');
    expect((await session.get('/settings/other/secret-site')).status).toBe(404);
    expect((await session.get('/settings/other/secret-site/webhooks')).status).toBe(404);
    // Its Tokens page lists the tokens of its workspace only.
    const tokens = await session.get('/settings/tokens');
    expect(tokens.status).toBe(200);
    expect(tokens.text).not.toContain('>Admin<');
  });

  it('refuses a state change without the CSRF token, or from another origin, and changes nothing', async () => {
    const session = await signedIn();
    const csrf = await session.csrf(`${project}/webhooks`);
    const fields = { url: 'https://hooks.example.com/csrf', events: '*', description: '' };
    const withoutToken = await session.post(`${project}/webhooks`, fields);
    expect(withoutToken.status).toBe(403);
    const wrongToken = await session.post(`${project}/webhooks`, { ...fields, _csrf: `${csrf}x` });
    expect(wrongToken.status).toBe(403);
    const otherOrigin = await session.post(`${project}/webhooks`, { ...fields, _csrf: csrf }, { origin: 'https://evil.example' });
    expect(otherOrigin.status).toBe(403);
    const listed = (await cli.svc(['webhooks', 'list', '--json'], { cwd: directory })).json<{ webhooks: { url: string }[] }>();
    expect(listed.webhooks.map((webhook) => webhook.url)).not.toContain('https://hooks.example.com/csrf');
  });

  it('adds a webhook from the page with the secret shown once, and the CLI lists it', async () => {
    const session = await signedIn();
    const csrf = await session.csrf(`${project}/webhooks`);
    const added = await session.post(`${project}/webhooks`, { url: 'https://hooks.example.com/page', events: 'form.*', description: 'CRM', _csrf: csrf });
    expect(added.status).toBe(201);
    const secret = /whsec_[A-Za-z0-9_-]+/.exec(added.text)?.[0];
    expect(secret).toBeDefined();
    const listed = (await cli.svc(['webhooks', 'list', '--json'], { cwd: directory })).json<{ webhooks: { url: string; description: string | null }[] }>();
    expect(listed.webhooks).toContainEqual(expect.objectContaining({ url: 'https://hooks.example.com/page', description: 'CRM' }));
    const again = await session.get(`${project}/webhooks`);
    expect(again.text).toContain('https://hooks.example.com/page');
    expect(again.text).not.toContain(secret!);
  });

  it('re-shows the form with the problem in words when a webhook is not valid', async () => {
    const session = await signedIn();
    const csrf = await session.csrf(`${project}/webhooks`);
    const refused = await session.post(`${project}/webhooks`, { url: 'ftp://example.com', events: 'form.*', description: '', _csrf: csrf });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('The webhook was not added');
    expect(refused.text).toContain('value="ftp://example.com"');
  });

  it('refuses a rollback for an environment that does not exist instead of taking it for production', async () => {
    const session = await signedIn();
    const csrf = await session.csrf(`${project}/deploys`);
    const refused = await session.post(`${project}/deploys/rollback`, { environment: 'prod', _csrf: csrf });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('no environment');
  });

  it('shows submitted text as text, never as markup', async () => {
    await fetch(formUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'x@example.com', name: '<script>alert(1)</script>' }) });
    const session = await signedIn();
    const page = await session.get(`${project}/forms/contact`);
    // Long values may wrap after their punctuation (<wbr>), which is no part of the text.
    expect(page.text.replaceAll('<wbr/>', '')).toContain('&lt;script>alert(1)&lt;/script>');
    expect(page.text).not.toContain('<script>alert');
  });

  it('downloads a submitted file as an attachment with nosniff', async () => {
    const body = new FormData();
    body.set('email', 'files@example.com');
    body.set('brief', new Blob(['<html>not rendered</html>'], { type: 'text/html' }), 'naïve brief.html');
    await fetch(formUrl, { method: 'POST', body });
    const session = await signedIn();
    const page = await session.get(`${project}/forms/contact`);
    const link = /href="([^"]+\/files\/0)"/.exec(page.text)?.[1];
    expect(link).toBeDefined();
    const file = await session.get(link!.replace(/&amp;/g, '&'));
    expect(file.status).toBe(200);
    expect(file.text).toBe('<html>not rendered</html>');
    expect(file.headers.get('content-disposition')).toBe(`attachment; filename="na_ve brief.html"; filename*=UTF-8''na%C3%AFve%20brief.html`);
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('exports submissions as CSV and NDJSON downloads', async () => {
    const session = await signedIn();
    const csv = await session.get(`${project}/forms/contact/export?format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toContain('attachment');
    expect(csv.text.split('\r\n')[0]).toContain('submission_id,submitted_at');
    const ndjson = await session.get(`${project}/forms/contact/export?format=ndjson`);
    const lines = ndjson.text.trim().split('\n').map((line) => JSON.parse(line) as { type: string });
    expect(lines[0]!.type).toBe('header');
    expect(lines.at(-1)!.type).toBe('end');
  });

  it('ends the session on Sign out', async () => {
    const session = await signedIn();
    const csrf = await session.csrf();
    const out = await session.post('/logout', { _csrf: csrf });
    expect(out.status).toBe(303);
    expect((await session.get('/settings')).status).toBe(303);
  });

  it('ends every session of a token when the token is revoked', async () => {
    const created = (await cli.svc(['tokens', 'create', '--name', 'short-lived', '--admin', '--json'])).json<{ secret: string; token: { id: string } }>();
    const session = await signedIn(created.secret);
    expect((await session.get('/settings')).status).toBe(200);
    expect((await cli.svc(['tokens', 'revoke', created.token.id, '--json'])).code).toBe(0);
    const after = await session.get('/settings');
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toContain('/login');
  });

  it('answers an unknown settings path with a 404 page', async () => {
    const session = await signedIn();
    const page = await session.get('/settings/agency/site/nothing/here/at/all');
    expect(page.status).toBe(404);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  it("sets the form's retention in its settings, as svc forms set --retention does, and shows each tab's count", async () => {
    const session = await signedIn();
    const page = `${project}/forms/contact`;
    const csrf = await session.csrf(page);
    const counts = async () => {
      const text = (await session.get(page)).text;
      return [/Inbox <span class="muted small">(\d+)<\/span>/.exec(text)?.[1], /Spam <span class="muted small">(\d+)<\/span>/.exec(text)?.[1]].map(Number);
    };
    const [inbox, spam] = await counts();
    await fetch(formUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Counted' }) });
    await fetch(formUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'x-service-honeypot': '1' }, body: JSON.stringify({ name: 'Bot' }) });
    expect(await counts()).toEqual([inbox! + 1, spam! + 1]);

    const fields = { _csrf: csrf, successUrl: '', errorUrl: '', notify: '', rateLimit: '' };
    const refused = await session.post(`${page}/settings`, { ...fields, retention: 'soon' });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('The settings were not saved: retention &quot;soon&quot; is not a duration');
    const tooShort = await session.post(`${page}/settings`, { ...fields, retention: '30s' });
    expect(tooShort.text).toContain('retention must be from 1m to 3650d');
    const saved = await session.post(`${page}/settings`, { ...fields, retention: '90d' });
    expect(saved.status).toBe(303);
    const retention = async () => (await cli.svc(['forms', 'list', '--json'], { cwd: directory })).json<{ forms: { slug: string; retentionSeconds: number | null }[] }>().forms.find((form) => form.slug === 'contact')!.retentionSeconds;
    expect(await retention()).toBe(90 * 86_400);
    expect((await session.get(page)).text).toContain('id="retention" name="retention" type="text" value="90d"');
    // Empty keeps submissions until they are deleted.
    await session.post(`${page}/settings`, { ...fields, retention: '' });
    expect(await retention()).toBeNull();
  });

  it('moves, deletes and configures from the form page: settings saved or refused in words, moves and deletes confirmed', async () => {
    const session = await signedIn();
    const page = `${project}/forms/contact`;
    const csrf = await session.csrf(page);
    const posted = await fetch(formUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Page ops' }) });
    const { id } = (await posted.json()) as { id: string };

    const shown = await session.get(page);
    expect(shown.text).toContain(`<details class="item" id="${id}"`);
    expect(shown.text).toContain('<label for="success-url">Success URL</label>');
    expect(shown.text).toContain('<label for="notify">Notification emails</label>');
    expect(shown.text).toContain('This server sends no email');

    const refused = await session.post(`${page}/settings`, { _csrf: csrf, successUrl: 'not a url', errorUrl: '', notify: '', rateLimit: '' });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('The settings were not saved: successUrl must be an absolute http:// or https:// URL');
    expect(refused.text).toContain('value="not a url"');
    const saved = await session.post(`${page}/settings`, { _csrf: csrf, successUrl: 'https://agency.example/thanks', errorUrl: '', notify: '', rateLimit: '20/1m' });
    expect([saved.status, saved.headers.get('location')]).toEqual([303, `${page}?done=saved#settings-title`]);
    const forms = (await cli.svc(['forms', 'list', '--json'], { cwd: directory })).json<{ forms: { successUrl: string; rateLimit: unknown }[] }>().forms;
    expect(forms[0]).toMatchObject({ successUrl: 'https://agency.example/thanks', rateLimit: { max: 20, windowSeconds: 60 } });
    expect((await session.get(`${page}?done=saved`)).text).toContain('Form settings saved.');
    await session.post(`${page}/settings`, { _csrf: csrf, successUrl: '', errorUrl: '', notify: '', rateLimit: '' });

    const toSpam = await session.post(`${page}/submissions/${id}/move`, { _csrf: csrf, to: 'spam' });
    expect([toSpam.status, toSpam.headers.get('location')]).toEqual([303, `${page}?done=moved-spam`]);
    expect((await session.get(`${page}?state=spam`)).text).toContain(`id="${id}"`);
    const confirm = await session.get(`${page}/submissions/${id}/delete`);
    expect(confirm.text).toContain('<h1>Delete this submission?</h1>');
    const withoutToken = await session.post(`${page}/submissions/${id}/delete`, {});
    expect(withoutToken.status).toBe(403);
    const deleted = await session.post(`${page}/submissions/${id}/delete`, { _csrf: csrf });
    expect([deleted.status, deleted.headers.get('location')]).toEqual([303, `${page}?done=deleted`]);
    expect((await cli.svc(['submissions', 'show', id], { cwd: directory })).code).toBe(1);
  });

  it('replays a webhook\'s deliveries of a period from its delivery log', async () => {
    const session = await signedIn();
    const added = await cli.svc(['webhooks', 'add', '--url', 'http://127.0.0.1:9/replay', '--events', 'form.*', '--json'], { cwd: directory });
    const id = added.json<{ webhook: { id: string } }>().webhook.id;
    const log = `${project}/webhooks/${id}`;
    const page = await session.get(log);
    expect(page.text).toContain('<label for="replay-period">Created in the last</label>');
    expect(page.text).toContain('Replay deliveries</button>');
    const csrf = await session.csrf(log);
    const replayed = await session.post(`${log}/replay`, { _csrf: csrf, period: '6h', status: 'failed' });
    expect([replayed.status, replayed.headers.get('location')]).toEqual([303, `${log}?done=replayed-none`]);
    expect((await session.get(`${log}?done=replayed-none`)).text).toContain('Nothing to replay');
    expect((await session.post(`${log}/replay`, { period: '6h' })).status).toBe(403);
    expect((await cli.svc(['webhooks', 'remove', id], { cwd: directory })).code).toBe(0);
  });
});
