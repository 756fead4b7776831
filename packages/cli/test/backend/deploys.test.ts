// Deploys and hosting through the real `svc` binary against a real `svc serve` (docs/hosting.md).
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CliTestServer,
  createProject,
  createTestEnvironment,
  eventually,
  requestAsHost,
  selectBackend,
  serviceJson,
  startCliTestServer,
  startReceiver,
  startSvc,
  type WebhookReceiver,
} from '@svc/testkit';
import { verify } from '@svc/webhooks';

const backend = await selectBackend();

interface DeployJson {
  deploy: { id: string; environment: string; state: string; liveIn: string[]; files: number; uploadedFiles: number; url: string | null; previewUrl: string };
}

async function writeTree(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

const page = (title: string) => `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`;

describe.runIf(backend.available)(`deploys and hosting on ${backend.name}`, () => {
  let cli: CliTestServer;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    cli = await startCliTestServer(['--allow-private-targets', '--max-deploy-file-size', '256KiB']);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await cli?.stop();
    await receiver?.close();
  });

  const site = (hostname: string, path: string, options: { method?: string; headers?: Record<string, string> } = {}) => requestAsHost(cli.url, hostname, path, options);
  const deploy = async (directory: string, args: string[] = []) => {
    const result = await cli.svc(['deploy', ...args, '--json'], { cwd: directory });
    expect(result.code, result.stderr).toBe(0);
    return result.json<DeployJson>().deploy;
  };

  it.each([
    ['static', '.', { 'index.html': page('Home'), 'about.html': page('About'), 'style.css': 'h1{color:red}', 'logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>', 'data.json': '{"a":1}', '404.html': page('Lost') }],
    ['astro', 'dist', { 'index.html': page('Home'), 'about/index.html': page('About'), '_astro/index.Bx12abCd.css': 'h1{color:red}', '404.html': page('Lost') }],
    ['next', 'out', { 'index.html': page('Home'), 'about.html': page('About'), '_next/static/chunks/main-3f9a1c2b.js': 'console.log(1)', '404.html': page('Lost') }],
  ])('deploys a %s site from %s and serves it by Host and by preview address', async (framework, output, tree) => {
    const hostname = `www.${framework}-${randomBytes(3).toString('hex')}.test`;
    const directory = await createProject(cli, `host-${framework}`, 'site', { framework, domains: { production: [hostname] } });
    await writeTree(join(directory, output), tree);
    // What is never uploaded, whatever the framework.
    await writeTree(directory, { '.env': 'SECRET=1', 'node_modules/x/index.js': 'x', '.svcignore': 'drafts/\n', 'drafts/secret.html': 'draft' });
    if (output !== '.') await writeTree(join(directory, output), { '.env.production': 'SECRET=2' });

    const deployed = await deploy(directory, ['--environment', 'production']);
    // Contents stored by an earlier deploy (another project's, even) are not uploaded again.
    expect(deployed).toMatchObject({ environment: 'production', state: 'live', liveIn: ['production'], files: Object.keys(tree).length });
    expect(deployed.url).toBe(`http://${hostname}:${new URL(cli.url).port}`);

    const home = await site(hostname, '/');
    expect([home.status, home.headers['content-type'], home.text]).toEqual([200, 'text/html; charset=utf-8', page('Home')]);
    const about = await site(hostname, '/about');
    expect([about.status, about.text]).toEqual([200, page('About')]);
    const missing = await site(hostname, '/nowhere');
    expect([missing.status, missing.text]).toEqual([404, page('Lost')]);
    for (const secret of ['/.env', '/.env.production', '/service.json', '/drafts/secret.html', '/node_modules/x/index.js']) expect((await site(hostname, secret)).status, secret).toBe(404);

    const asset = Object.keys(tree).find((path) => /\.(css|js)$/.test(path))!;
    const fetched = await site(hostname, `/${asset}`);
    expect(fetched.headers['content-type']).toMatch(asset.endsWith('.css') ? /^text\/css/ : /javascript/);
    if (framework !== 'static') expect(fetched.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(home.headers['cache-control']).toBe('public, max-age=0, must-revalidate');

    const etag = home.headers['etag'] as string;
    expect((await site(hostname, '/', { headers: { 'if-none-match': etag } })).status).toBe(304);
    const head = await site(hostname, '/', { method: 'HEAD' });
    expect([head.status, head.headers['content-length'], head.body.length]).toEqual([200, String(Buffer.byteLength(page('Home'))), 0]);
    const range = await site(hostname, '/', { headers: { range: 'bytes=0-8' } });
    expect([range.status, range.headers['content-range'], range.text]).toEqual([206, `bytes 0-8/${Buffer.byteLength(page('Home'))}`, '<!doctype']);
    expect((await site(hostname, '/', { headers: { range: 'bytes=9999-' } })).status).toBe(416);

    const preview = await site(`${deployed.id}.localhost`, '/about');
    expect([preview.status, preview.text]).toEqual([200, page('About')]);
    // The form endpoint and the widget answer on every hostname, the site's included.
    expect((await site(hostname, '/pinpoints.js')).status).toBe(200);
  });

  it('uploads nothing the second time the same tree is deployed', async () => {
    const directory = await createProject(cli, 'host-again', 'site', { domains: { production: ['www.again.test'] } });
    await writeTree(directory, { 'index.html': page('Same'), 'app.js': 'console.log(2)' });
    expect((await deploy(directory, ['--environment', 'production'])).uploadedFiles).toBe(2);
    const again = await deploy(directory, ['--environment', 'production']);
    expect([again.uploadedFiles, again.files, again.state]).toEqual([0, 2, 'live']);
  });

  it('never caches HTML immutable, even under a name that looks content-hashed', async () => {
    const directory = await createProject(cli, 'host-caching', 'site', { domains: { production: ['www.caching.test'] } });
    await writeTree(directory, { 'index.html': page('Home'), 'page-20240115.html': page('Dated'), 'app.3f9a1c2b.js': 'console.log(3)' });
    await deploy(directory, ['--environment', 'production']);
    const dated = await site('www.caching.test', '/page-20240115');
    expect([dated.status, dated.headers['cache-control']]).toEqual([200, 'public, max-age=0, must-revalidate']);
    expect((await site('www.caching.test', '/app.3f9a1c2b.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('switches what is served at once on rollback and promote, each change sending its event once, signed', async () => {
    const directory = await createProject(cli, 'host-switch', 'site', {
      environments: { production: { branch: 'main' }, staging: { branch: 'dev' } },
      domains: { production: ['www.switch.test'], staging: ['staging.switch.test'] },
      pinpoints: { staging: false },
    });
    const added = await cli.svc(['webhooks', 'add', '--url', `${receiver.url}/deploys`, '--events', 'deploy.*', '--json'], { cwd: directory });
    const secret = added.json<{ secret: string }>().secret;
    await writeTree(directory, { 'index.html': page('Version 1') });
    const first = await deploy(directory, ['--environment', 'staging']);
    await writeTree(directory, { 'index.html': page('Version 2') });
    const second = await deploy(directory, ['--environment', 'staging']);
    expect((await site('staging.switch.test', '/')).text).toBe(page('Version 2'));

    const rolledBack = await cli.svc(['deploys', 'rollback', '--environment', 'staging', '--json'], { cwd: directory });
    expect(rolledBack.json()).toMatchObject({ deploy: { id: first.id }, previous: second.id, changed: true });
    expect((await site('staging.switch.test', '/')).text).toBe(page('Version 1'));

    const promoted = await cli.svc(['deploys', 'promote', second.id, '--to', 'production', '--json'], { cwd: directory });
    expect(promoted.json()).toMatchObject({ deploy: { id: second.id, liveIn: ['production'] }, environment: 'production', previous: null, changed: true });
    expect((await site('www.switch.test', '/')).text).toBe(page('Version 2'));
    expect((await site('staging.switch.test', '/')).text).toBe(page('Version 1'));

    const listed = (await cli.svc(['deploys', 'list', '--json'], { cwd: directory })).json<{ live: Record<string, string | null> }>();
    expect(listed.live).toEqual({ production: second.id, staging: first.id, development: null });

    const expected = ['deploy.started', 'deploy.succeeded', 'deploy.started', 'deploy.succeeded', 'deploy.promoted', 'deploy.promoted'];
    const deliveries = await receiver.waitFor(expected.length, (request) => request.path === '/deploys');
    const events = receiver.requests.filter((request) => request.path === '/deploys');
    expect(events.map((request) => request.headers['x-service-event']).sort()).toEqual([...expected].sort());
    expect(new Set(events.map((request) => request.headers['x-service-event-id'] ?? (JSON.parse(request.body.toString('utf8')) as { id: string }).id)).size).toBe(expected.length);
    for (const delivery of deliveries) expect(() => verify(delivery.body, delivery.headers['x-service-signature'] as string, secret)).not.toThrow();
    const promotions = events.filter((request) => request.headers['x-service-event'] === 'deploy.promoted').map((request) => (JSON.parse(request.body.toString('utf8')) as { data: unknown }).data);
    expect(promotions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ deploy: expect.objectContaining({ id: first.id }), promotion: { environment: 'staging', previous: second.id } }),
        expect.objectContaining({ deploy: expect.objectContaining({ id: second.id }), promotion: { environment: 'production', previous: null } }),
      ]),
    );
  });

  it('serves a hostname from its new environment as soon as a push moves it, and no more once a push drops it', async () => {
    const environments = { production: { branch: 'main' }, staging: { branch: 'dev' } };
    const directory = await createProject(cli, 'host-move', 'site', { environments, domains: { production: ['www.move.test'] } });
    await writeTree(directory, { 'index.html': page('Production') });
    await deploy(directory, ['--environment', 'production']);
    await writeTree(directory, { 'index.html': page('Staging') });
    await deploy(directory, ['--environment', 'staging']);
    expect((await site('www.move.test', '/')).text).toBe(page('Production'));

    const push = async (domains: Record<string, string[]>) => {
      await writeFile(join(directory, 'service.json'), serviceJson('host-move', 'site', { environments, domains }));
      const pushed = await cli.svc(['push', '--json'], { cwd: directory });
      expect(pushed.code, pushed.stderr).toBe(0);
    };
    await push({ staging: ['www.move.test'] });
    // Staging shows the Pinpoints widget by default: the page with its tag.
    expect((await site('www.move.test', '/')).text).toContain('<h1>Staging</h1><script src=');
    await push({});
    expect(JSON.parse((await site('www.move.test', '/')).text)).toEqual({ ok: false, error: 'not_found' });
  });

  it('answers 404 to ../ and encoded traversal attempts, never a file outside the deploy', async () => {
    const directory = await createProject(cli, 'host-escape', 'site', { domains: { production: ['www.escape.test'] } });
    await writeTree(directory, { 'index.html': page('Inside'), 'sub/page.html': page('Sub') });
    await deploy(directory, ['--environment', 'production']);
    for (const path of ['/../service.json', '/sub/../../index.html', '/%2e%2e/%2e%2e/etc/passwd', '/sub/%2E%2E/%2E%2E/x', '/sub%2f..%2f..%2fx', '/..%5c..%5cwindows', '/%00index.html']) {
      const answer = await site('www.escape.test', path);
      expect(answer.status, path).toBe(404);
      expect(answer.text).not.toContain('Inside');
    }
  });

  it('refuses a deploy over its limits before anything is uploaded', async () => {
    const directory = await createProject(cli, 'host-limits', 'site', { domains: { production: ['www.limits.test'] } });
    await writeTree(directory, { 'index.html': page('Big'), 'video.bin': randomBytes(300 * 1024) });
    const refused = await cli.svc(['deploy', '--environment', 'production', '--json'], { cwd: directory });
    expect(refused.code).toBe(1);
    expect(refused.json()).toMatchObject({ ok: false, error: { code: 'payload_too_large', message: expect.stringContaining('video.bin') } });
    expect((await cli.svc(['deploys', 'list', '--json'], { cwd: directory })).json()).toMatchObject({ deploys: [] });
  });
});

describe.runIf(backend.available)(`a deploy cut off by a killed server on ${backend.name}`, () => {
  it('leaves the previous deploy live, and the cut-off one marked failed after the restart with deploy.failed sent once, signed', async () => {
    const environment = await createTestEnvironment();
    const token = `svc_test_${randomBytes(16).toString('hex')}`;
    const receiver = await startReceiver();
    let server = await startSvc({ args: [...environment.serverArgs, '--allow-private-targets'], env: { SVC_BOOTSTRAP_TOKEN: token } });
    try {
      const api = async (url: string, path: string, method = 'GET', body?: unknown) => {
        const response = await fetch(`${url}/api/cli${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the answers are read loosely here; their shapes are tested elsewhere
        return { status: response.status, body: (await response.json()) as Record<string, any> };
      };
      const config = { workspace: 'crash', project: 'site', framework: 'static', environments: { production: { branch: 'main' } }, domains: { production: ['www.crash.test'] } };
      expect((await api(server.url, '/projects', 'POST', { config })).status).toBe(200);
      const webhook = await api(server.url, '/projects/crash/site/webhooks', 'POST', { url: `${receiver.url}/failed`, events: ['deploy.failed'] });
      expect(webhook.status).toBe(200);
      const content = Buffer.from(page('Safe'));
      const sha256 = (await import('node:crypto')).createHash('sha256').update(content).digest('hex');
      const first = await api(server.url, '/projects/crash/site/deploys', 'POST', { environment: 'production', files: [{ path: 'index.html', sha256, size: content.length }] });
      const id = first.body['deploy'].id as string;
      const upload = await fetch(`${server.url}/api/cli/projects/crash/site/deploys/${id}/files/${sha256}`, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' }, body: content });
      expect(upload.status).toBe(200);
      expect((await api(server.url, `/projects/crash/site/deploys/${id}/finalize`, 'POST', {})).status).toBe(200);

      // A second deploy whose upload the server never finishes: killed in the middle.
      const other = Buffer.from(page('Half'));
      const otherHash = (await import('node:crypto')).createHash('sha256').update(other).digest('hex');
      const cut = await api(server.url, '/projects/crash/site/deploys', 'POST', { environment: 'production', files: [{ path: 'index.html', sha256: otherHash, size: other.length }] });
      expect(cut.body['deploy'].state).toBe('uploading');
      await server.kill();

      server = await startSvc({ args: [...environment.serverArgs, '--allow-private-targets', '--deploy-timeout', '1s'], env: { SVC_BOOTSTRAP_TOKEN: token } });
      expect((await requestAsHost(server.url, 'www.crash.test', '/')).text).toBe(page('Safe'));
      const listed = await eventually(
        () => api(server.url, '/projects/crash/site/deploys'),
        (answer) => (answer.body['deploys'] as { id: string; state: string }[]).some((deploy) => deploy.id === cut.body['deploy'].id && deploy.state === 'failed'),
        'the cut-off deploy marked failed',
      );
      expect(listed.body['live']).toMatchObject({ production: id });
      expect((await requestAsHost(server.url, 'www.crash.test', '/')).text).toBe(page('Safe'));
      // Finishing it now is refused: start a new deploy instead.
      expect((await api(server.url, `/projects/crash/site/deploys/${cut.body['deploy'].id}/finalize`, 'POST', {})).status).toBe(409);

      const [failed] = await receiver.waitFor(1, (request) => request.path === '/failed');
      expect(() => verify(failed!.body, failed!.headers['x-service-signature'] as string, webhook.body['secret'] as string)).not.toThrow();
      expect(JSON.parse(failed!.body.toString('utf8'))).toMatchObject({ type: 'deploy.failed', data: { deploy: { id: cut.body['deploy'].id, state: 'failed' } } });
      expect(receiver.requests.filter((request) => request.path === '/failed')).toHaveLength(1);
    } finally {
      await server.stop();
      await receiver.close();
      await environment.cleanup();
    }
  });
});

describe.runIf(backend.available)(`deploy limits on ${backend.name}`, () => {
  let cli: CliTestServer;
  beforeAll(async () => {
    cli = await startCliTestServer(['--max-deploy-files', '3', '--max-deploy-size', '10KiB']);
  });
  afterAll(async () => {
    await cli?.stop();
  });

  it.each([
    ['more files than --max-deploy-files', { 'index.html': page('A'), 'a.js': '1', 'b.js': '2', 'c.js': '3' }, /at most 3 files; this one has 4/],
    ['more bytes than --max-deploy-size', { 'index.html': page('A'), 'big.txt': 'x'.repeat(12 * 1024) }, /the deploy is 12.1 KiB; a deploy is at most 10.0 KiB/],
  ])('refuses a deploy with %s before anything is uploaded', async (_what, tree, message) => {
    const directory = await createProject(cli, `limits-${randomBytes(3).toString('hex')}`, 'site', { domains: { production: [`www.${randomBytes(3).toString('hex')}.test`] } });
    await writeTree(directory, tree);
    const refused = await cli.svc(['deploy', '--environment', 'production', '--json'], { cwd: directory });
    expect(refused.code).toBe(1);
    expect(refused.json()).toMatchObject({ ok: false, error: { code: 'payload_too_large', message: expect.stringMatching(message) } });
    expect((await cli.svc(['deploys', 'list', '--json'], { cwd: directory })).json()).toMatchObject({ deploys: [] });
  });
});
