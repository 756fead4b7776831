// Site rules (docs/hosting.md#redirects-and-headers): a deploy's _redirects and _headers
// answered over HTTP by a real `svc serve`, bad lines failing `svc deploy`, its dry run and a
// build from git with the file and line named, and noindex on everything that is not
// production.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CliTestServer,
  createProject,
  createTestGitRepo,
  eventually,
  htmlPage,
  pushWebhook,
  request,
  requestAsHost,
  selectBackend,
  startCliTestServer,
  type TestGitRepo,
  uniqueName,
} from '@svc/testkit';
import type { BuildInfo } from '@svc/protocol/api';

const backend = await selectBackend();

interface DeployJson {
  deploy: { id: string; state: string; error: string | null };
}

async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

/** A redirect rule of every kind, and the files they answer with. */
const redirects = [
  '# every kind of rule',
  '/old-home /',
  '/moved /about 302',
  '/see-other /about 303',
  '/keep-method /about 307',
  '/permanent /about 308',
  '/blog/:year/:slug /posts/:year-:slug',
  '/docs/* /guide/:splat',
  '/about /about-forced.html 200!',
  '/style.css /elsewhere.css 301',
  '/external https://example.com/landing 302',
  '/gone/* /gone.html 404',
  '/app/* /app/index.html 200',
].join('\n');

const headers = [
  '/*',
  '  X-Frame-Options: DENY',
  '  Cache-Control: public, max-age=60',
  '/posts/:slug',
  '  X-Post: yes',
  '  Cache-Control: stale-while-revalidate=30',
  '/posts/*',
  '  X-Post: all',
].join('\n');

const site = {
  'index.html': htmlPage('Home'),
  'about.html': htmlPage('About'),
  'about-forced.html': htmlPage('About, forced'),
  'style.css': 'h1{color:red}',
  'gone.html': htmlPage('Gone'),
  'app/index.html': htmlPage('App'),
  'posts/2024-hello.html': htmlPage('Hello'),
  'guide/intro.html': htmlPage('Intro'),
  '404.html': htmlPage('Lost'),
  _redirects: redirects,
  _headers: headers,
};

describe.runIf(backend.available)(`site rules on ${backend.name}`, () => {
  let cli: CliTestServer;

  beforeAll(async () => {
    cli = await startCliTestServer(['--allow-local-repos', '--cli-rate-limit', '100000/1m', '--build-sandbox', 'auto', '--build-poll-interval', '200ms']);
  }, 120_000);
  afterAll(async () => {
    await cli?.stop();
  });

  const get = (hostname: string, path: string, method = 'GET') => requestAsHost(cli.url, hostname, path, { method });
  const deploy = async (directory: string, environment = 'production') => {
    const result = await cli.svc(['deploy', '--environment', environment, '--json'], { cwd: directory });
    expect(result.code, result.stderr).toBe(0);
    return result.json<DeployJson>().deploy;
  };

  it('answers every kind of redirect rule over HTTP', async () => {
    const hostname = `www.${uniqueName('rules')}.test`;
    const directory = await createProject(cli, uniqueName('rules'), 'site', { domains: { production: [hostname] } });
    await writeTree(directory, site);
    const deployed = await deploy(directory);
    expect(deployed.state).toBe('live');

    const redirectOf = async (path: string, method = 'GET') => {
      const answer = await get(hostname, path, method);
      return [answer.status, answer.headers.location];
    };
    expect(await redirectOf('/old-home')).toEqual([301, '/']);
    expect(await redirectOf('/old-home', 'HEAD')).toEqual([301, '/']);
    expect(await redirectOf('/moved?utm_source=mail')).toEqual([302, '/about?utm_source=mail']);
    expect(await redirectOf('/see-other')).toEqual([303, '/about']);
    expect(await redirectOf('/keep-method')).toEqual([307, '/about']);
    expect(await redirectOf('/permanent/')).toEqual([308, '/about']);
    expect(await redirectOf('/blog/2024/hello')).toEqual([301, '/posts/2024-hello']);
    expect(await redirectOf('/docs/intro')).toEqual([301, '/guide/intro']);
    expect(await redirectOf('/external')).toEqual([302, 'https://example.com/landing']);
    // Where they lead: clean URLs of the deploy.
    expect((await get(hostname, '/posts/2024-hello')).text).toBe(htmlPage('Hello'));
    expect((await get(hostname, '/guide/intro')).text).toBe(htmlPage('Intro'));

    // ! applies the rule over the file that answers the path; without it, the file wins.
    const about = await get(hostname, '/about');
    expect([about.status, about.text]).toEqual([200, htmlPage('About, forced')]);
    const style = await get(hostname, '/style.css');
    expect([style.status, style.headers.location, style.text]).toEqual([200, undefined, 'h1{color:red}']);

    // 200 serves TO's file under the path asked for (the SPA fallback); a file still wins.
    const deep = await get(hostname, '/app/settings/profile');
    expect([deep.status, deep.headers['content-type'], deep.text]).toEqual([200, 'text/html; charset=utf-8', htmlPage('App')]);
    expect((await get(hostname, '/app/')).text).toBe(htmlPage('App'));
    // 404 serves TO's file with its status.
    const gone = await get(hostname, '/gone/old-page');
    expect([gone.status, gone.text]).toEqual([404, htmlPage('Gone')]);
    // What no file and no rule answers: the deploy's 404.html.
    const missing = await get(hostname, '/nowhere');
    expect([missing.status, missing.text]).toEqual([404, htmlPage('Lost')]);
    // The rules files are never served.
    for (const path of ['/_redirects', '/_headers']) {
      const answer = await get(hostname, path);
      expect([answer.status, answer.text], path).toEqual([404, htmlPage('Lost')]);
    }
    // Rules never reach outside the deploy.
    for (const path of ['/blog/2024/..%2f..%2fetc', '/docs/%2e%2e/%2e%2e/x', '/app/..%5c..%5cx']) expect((await get(hostname, path)).status, path).toBe(404);
    // Production is indexed as it always was.
    expect((await get(hostname, '/')).headers['x-robots-tag']).toBeUndefined();
  });

  it('sets the headers of every matching block in file order, replacing the service\'s own of the same name', async () => {
    const hostname = `www.${uniqueName('headers')}.test`;
    const directory = await createProject(cli, uniqueName('headers'), 'site', { domains: { production: [hostname] } });
    await writeTree(directory, site);
    await deploy(directory);

    const post = await get(hostname, '/posts/2024-hello');
    expect(post.status).toBe(200);
    expect(post.headers['x-frame-options']).toBe('DENY');
    expect(post.headers['x-post']).toBe('yes, all');
    expect(post.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=30');
    // Headers the rules leave alone stay the service's.
    expect(post.headers['x-content-type-options']).toBe('nosniff');
    expect(post.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    // A conditional request keeps them too.
    const again = await requestAsHost(cli.url, hostname, '/posts/2024-hello', { headers: { 'if-none-match': post.headers.etag! } });
    expect([again.status, again.headers['x-frame-options']]).toEqual([304, 'DENY']);
    const home = await get(hostname, '/');
    expect([home.headers['x-frame-options'], home.headers['cache-control'], home.headers['x-post']]).toEqual(['DENY', 'public, max-age=60', undefined]);
    // A miss (the deploy's 404.html) carries them; a redirect does not.
    expect((await get(hostname, '/nowhere')).headers['x-frame-options']).toBe('DENY');
    expect((await get(hostname, '/old-home')).headers['x-frame-options']).toBeUndefined();
  });

  it.each([
    ['_redirects', 2, '/ok /fine\n/broken\n', '_redirects:2: has no TO: a rule is FROM TO [STATUS] (/broken)'],
    ['_redirects', 1, '/api/* https://api.example.com/:splat 200\n', '_redirects:1: TO is an absolute URL, taken only with a redirect status (301, 302, 303, 307, 308): rules never fetch another site (https://api.example.com/:splat)'],
    ['_headers', 3, '/*\n  X-Frame-Options: DENY\n  Set-Cookie: session=1\n', '_headers:3: sets set-cookie, which a site may not set: a site served here never sets cookies through _headers'],
  ])('a bad %s fails svc deploy and its dry run, naming the line, and leaves the live site untouched', async (file, line, text, message) => {
    const hostname = `www.${uniqueName('bad')}.test`;
    const directory = await createProject(cli, uniqueName('bad'), 'site', { domains: { production: [hostname] } });
    await writeTree(directory, { 'index.html': htmlPage('Live') });
    const live = await deploy(directory);
    await writeTree(directory, { 'index.html': htmlPage('Never live'), [file]: text });

    // The dry run reads the rules on this machine, with the server's parser, before any upload.
    const dry = await cli.svc(['deploy', '--dry-run', '--environment', 'production', '--json'], { cwd: directory });
    expect([dry.code, dry.json()]).toEqual([1, { ok: false, error: { code: 'validation_failed', message, details: { errors: { [file]: `line ${line}: ${message.slice(message.indexOf(': ') + 2)}` } } } }]);
    const dryText = await cli.svc(['deploy', '--dry-run', '--environment', 'production'], { cwd: directory });
    expect([dryText.code, dryText.stdout]).toEqual([1, '']);
    expect(dryText.stderr).toContain(message);

    const refused = await cli.svc(['deploy', '--environment', 'production', '--json'], { cwd: directory });
    expect([refused.code, refused.json()]).toEqual([1, { ok: false, error: { code: 'validation_failed', message, details: { errors: { [file]: `line ${line}: ${message.slice(message.indexOf(': ') + 2)}` } } } }]);
    const listed = (await cli.svc(['deploys', 'list', '--json'], { cwd: directory })).json<{ deploys: { id: string; state: string; error: string | null }[]; live: { production: string } }>();
    expect(listed.live.production).toBe(live.id);
    expect(listed.deploys[0]).toMatchObject({ state: 'failed', error: message });
    expect((await get(hostname, '/')).text).toBe(htmlPage('Live'));
  });

  it('the dry run says what the rules hold when they parse', async () => {
    const directory = await createProject(cli, uniqueName('dry'), 'site', { domains: { production: [`www.${uniqueName('dry')}.test`] } });
    await writeTree(directory, site);
    const dry = await cli.svc(['deploy', '--dry-run', '--environment', 'production'], { cwd: directory });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('Rules: _redirects 12 rules, _headers 3 blocks (applied, never served as files).');
  });

  it('says noindex on staging, development and every preview, with a robots.txt that disallows everything, and not on production', async () => {
    const name = uniqueName('robots');
    const hosts = { production: `www.${name}.test`, staging: `staging.${name}.test`, development: `dev.${name}.test` };
    const directory = await createProject(cli, name, 'site', {
      environments: { production: { branch: 'main' }, staging: { branch: 'next' }, development: { branch: 'dev' } },
      domains: { production: [hosts.production], staging: [hosts.staging], development: [hosts.development] },
      pinpoints: { staging: false, development: false },
    });
    await writeTree(directory, { 'index.html': htmlPage('Site'), 'robots.txt': 'User-agent: *\nAllow: /\n', '404.html': htmlPage('Lost'), _headers: '/*\n  X-Robots-Tag: all\n' });
    const deployed: Record<string, string> = {};
    for (const environment of ['production', 'staging', 'development']) deployed[environment] = (await deploy(directory, environment)).id;

    const production = await get(hosts.production, '/');
    expect([production.status, production.headers['x-robots-tag']]).toEqual([200, 'all']);
    expect((await get(hosts.production, '/robots.txt')).text).toBe('User-agent: *\nAllow: /\n');

    const hidden = [hosts.staging, hosts.development, `${deployed.production!}.localhost`, `${deployed.staging!}.localhost`];
    for (const hostname of hidden) {
      for (const path of ['/', '/nowhere']) expect((await get(hostname, path)).headers['x-robots-tag'], `${hostname}${path}`).toBe('noindex');
      expect((await get(hostname, '/', 'POST')).headers['x-robots-tag'], hostname).toBe('noindex');
      for (const path of ['/robots.txt', '/robots%2Etxt?x=1']) {
        const robots = await get(hostname, path);
        expect([robots.status, robots.headers['content-type'], robots.text, robots.headers['x-robots-tag']], `${hostname}${path}`).toEqual([200, 'text/plain; charset=utf-8', 'User-agent: *\nDisallow: /\n', 'noindex']);
      }
    }
  });

  describe('built from git', () => {
    let repo: TestGitRepo;
    let directory: string;
    let pushUrl: string;
    let pushSecret: string;
    const hostname = `www.${uniqueName('git-rules')}.test`;

    beforeAll(async () => {
      repo = await createTestGitRepo();
      directory = await createProject(cli, uniqueName('git-rules'), 'site', { domains: { production: [hostname] } });
      const connected = await cli.svc(['git', 'connect', '--repo', repo.path, '--json'], { cwd: directory });
      expect(connected.code, connected.stderr).toBe(0);
      ({ pushUrl, pushSecret } = connected.json<{ git: { pushUrl: string; pushSecret: string } }>().git);
    }, 60_000);
    afterAll(async () => {
      await repo?.remove();
    });

    const build = async (files: Record<string, string | null>): Promise<BuildInfo> => {
      const commit = await repo.commit('main', files);
      const { headers: pushHeaders, body } = pushWebhook('github', pushSecret, { ref: 'refs/heads/main', after: commit });
      const answer = await request(pushUrl, { method: 'POST', headers: pushHeaders, body });
      expect(answer.status).toBe(202);
      const id = (answer.body as { build: BuildInfo }).build.id;
      return eventually(
        async () => (await cli.svc(['builds', 'show', id, '--json'], { cwd: directory })).json<{ build: BuildInfo }>().build,
        (shown) => shown.status !== 'queued' && shown.status !== 'building',
        `build ${id} to end`,
        120_000,
      );
    };

    it('applies the rules of a build, and fails a build whose rules do not parse, naming the line, with the live site untouched', { timeout: 240_000 }, async () => {
      const good = await build({ 'index.html': htmlPage('Built'), 'about.html': htmlPage('About'), _redirects: '/old /about 308\n/* /index.html 200\n' });
      expect(good.status, good.error ?? '').toBe('succeeded');
      expect([(await get(hostname, '/old')).status, (await get(hostname, '/old')).headers.location]).toEqual([308, '/about']);
      expect((await get(hostname, '/client/side/route')).text).toBe(htmlPage('Built'));

      const bad = await build({ 'index.html': htmlPage('Never live'), _redirects: '/old /about 308\n\n/x /y 302 Country=au\n' });
      const why = '_redirects:3: has the condition Country=au: conditions (Country, Language, Role, Cookie) are not supported, and a rule with one would apply to everyone';
      expect([bad.status, bad.error]).toEqual(['failed', why]);
      const logs = await cli.svc(['builds', 'logs', bad.id], { cwd: directory });
      expect(logs.stdout).toContain(`failed: ${why}`);
      const listed = (await cli.svc(['deploys', 'list', '--json'], { cwd: directory })).json<{ deploys: { id: string; state: string; error: string | null }[]; live: { production: string } }>();
      expect(listed.live.production).toBe(good.deploy);
      expect(listed.deploys.find((entry) => entry.id === bad.deploy)).toMatchObject({ state: 'failed', error: expect.stringContaining(why) });
      expect((await get(hostname, '/')).text).toBe(htmlPage('Built'));
    });
  });
});
