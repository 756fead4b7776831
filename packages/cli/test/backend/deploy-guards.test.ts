// What `svc deploy` never publishes, --dry-run, the index.html guard and what the output
// tells, through the real `svc` binary against a real `svc serve` (docs/hosting.md).
import { createHash } from 'node:crypto';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTestServer, createProject, requestAsHost, selectBackend, startCliTestServer } from '@svc/testkit';

const backend = await selectBackend();

async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

const page = (title: string) => `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1></body></html>`;

/** A static site's folder as agencies have them: secrets and tooling beside the pages. */
const siteWithTooling = {
  'index.html': page('Home'),
  'about.html': page('About'),
  '.well-known/security.txt': 'Contact: mailto:security@client.test\n',
  '.npmrc': '//registry.npmjs.org/:_authToken=npm_1234567890abcdef\n',
  '.env': 'STRIPE_SECRET=sk_live_123\n',
  '.git/config': '[core]\n',
  '.well-known/.DS_Store': 'x',
  'node_modules/left-pad/index.js': 'module.exports = 1;\n',
  '.svcignore': '# not for the public\ndrafts/\n*.psd\n!.npmrc\n',
  'drafts/next-campaign.html': page('Draft'),
  'img/hero.psd': 'psd',
  'svc-config/credentials.json': '{"token":"svc_secret"}',
};

const expectedSkipped = [
  { path: '.env', reason: 'hidden' },
  { path: '.git/', reason: 'hidden' },
  { path: '.npmrc', reason: 'hidden' },
  { path: '.svcignore', reason: 'hidden' },
  { path: '.well-known/.DS_Store', reason: 'hidden' },
  { path: 'drafts/', reason: 'svcignore' },
  { path: 'img/hero.psd', reason: 'svcignore' },
  { path: 'node_modules/', reason: 'node_modules' },
  { path: 'service.json', reason: 'service_json' },
  { path: 'svc-config/', reason: 'svc_state' },
];

describe.runIf(backend.available)(`what svc deploy takes and tells on ${backend.name}`, () => {
  let cli: CliTestServer;
  beforeAll(async () => {
    cli = await startCliTestServer();
  });
  afterAll(async () => {
    await cli?.stop();
  });

  it('never publishes dotfiles (an .npmrc with its token), node_modules, service.json, svc state or what .svcignore lists, serves .well-known/, and says what it skipped', async () => {
    const hostname = 'www.tooling.test';
    const directory = await createProject(cli, 'guards-skip', 'site', { domains: { production: [hostname] } });
    await writeTree(directory, siteWithTooling);
    // The CLI's own configuration inside the site's folder (SVC_CONFIG_DIR=./svc-config in a CI job).
    const env = { SVC_CONFIG_DIR: join(directory, 'svc-config') };

    const deployed = await cli.svc(['deploy', '--environment', 'production', '--json'], { cwd: directory, env });
    expect(deployed.code, deployed.stderr).toBe(0);
    const result = deployed.json<{ ok: true; deploy: { files: number; uploadedFiles: number }; skipped: unknown[] }>();
    expect(result.deploy).toMatchObject({ files: 3, uploadedFiles: 3 });
    expect(result.skipped).toEqual(expectedSkipped);

    const site = (path: string) => requestAsHost(cli.url, hostname, path);
    expect((await site('/')).text).toBe(page('Home'));
    expect([(await site('/.well-known/security.txt')).status, (await site('/.well-known/security.txt')).text]).toEqual([200, siteWithTooling['.well-known/security.txt']]);
    for (const path of ['/.npmrc', '/.env', '/.git/config', '/.svcignore', '/drafts/next-campaign.html', '/img/hero.psd', '/node_modules/left-pad/index.js', '/service.json', '/svc-config/credentials.json']) {
      expect((await site(path)).status, path).toBe(404);
    }

    // For people: one line naming what was left out, and why.
    const again = await cli.svc(['deploy', '--environment', 'production'], { cwd: directory, env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('Skipped 10: .env, .git/, .npmrc, .svcignore, .well-known/.DS_Store, node_modules/ and 2 more (never uploaded); drafts/, img/hero.psd (listed in .svcignore). `svc deploy --dry-run` lists them all.');
  });

  it('refuses a deploy that declares a path no deploy uploads, whatever client sends it', async () => {
    const directory = await createProject(cli, 'guards-api', 'site');
    const content = Buffer.from('//registry.npmjs.org/:_authToken=npm_1234567890abcdef\n');
    const sha256 = createHash('sha256').update(content).digest('hex');
    const answer = await fetch(`${cli.url}/api/cli/projects/guards-api/site/deploys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${cli.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ environment: 'production', files: [{ path: 'index.html', sha256, size: content.length }, { path: '.npmrc', sha256, size: content.length }] }),
    });
    expect(answer.status).toBe(422);
    expect(await answer.json()).toMatchObject({ ok: false, error: 'validation_failed', errors: { '.npmrc': expect.stringContaining('never deployed') } });
    expect((await cli.svc(['deploys', 'list', '--json'], { cwd: directory })).json()).toMatchObject({ deploys: [] });
  });

  it('--dry-run prints what would be deployed and skipped, without credentials, uploading nothing and making no deploy', async () => {
    const directory = await createProject(cli, 'guards-dry', 'site', { domains: { production: ['www.dry.test'] } });
    await writeTree(directory, siteWithTooling);
    const env = { SVC_CONFIG_DIR: join(directory, 'svc-config') };
    const before = (await readdir(directory, { recursive: true })).sort();

    const dry = await cli.svc(['deploy', '--environment', 'production', '--dry-run', '--json'], { cwd: directory, env, token: null });
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.json()).toEqual({
      ok: true,
      dryRun: true,
      files: [
        { path: '.well-known/security.txt', size: Buffer.byteLength(siteWithTooling['.well-known/security.txt']) },
        { path: 'about.html', size: Buffer.byteLength(page('About')) },
        { path: 'index.html', size: Buffer.byteLength(page('Home')) },
      ],
      skipped: expectedSkipped,
    });
    const human = await cli.svc(['deploy', '--environment', 'production', '--dry-run'], { cwd: directory, env, token: null });
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^Dry run: nothing uploaded, no deploy made\.\nWould deploy 3 files \(\d+ B\) from \. to production:\n {2}\.well-known\/security\.txt {2}\d+ B\n/);
    expect(human.stdout).toContain('Skipped 10:\n  .env                   name starts with "."\n');
    expect(human.stdout).toContain('  drafts/                listed in .svcignore\n');

    expect((await cli.svc(['deploys', 'list', '--json'], { cwd: directory })).json()).toMatchObject({ deploys: [] });
    expect((await requestAsHost(cli.url, 'www.dry.test', '/')).status).toBe(404);
    expect((await readdir(directory, { recursive: true })).sort()).toEqual(before);
  });

  it('refuses a folder without index.html at its root, naming it and the framework\'s output folder, unless --allow-no-index; the live site stays', async () => {
    const hostname = 'www.noindex.test';
    const directory = await createProject(cli, 'guards-index', 'site', { framework: 'astro', domains: { production: [hostname] } });
    await writeTree(directory, { 'dist/index.html': page('Live'), 'public/robots.txt': 'User-agent: *\n', 'public/img/logo.svg': '<svg/>' });
    expect((await cli.svc(['deploy', '--environment', 'production', '--json'], { cwd: directory })).code).toBe(0);

    // A typo'd folder: public/ instead of dist/.
    const refused = await cli.svc(['deploy', 'public', '--environment', 'production', '--json'], { cwd: directory });
    expect(refused.code).toBe(1);
    expect(refused.json()).toEqual({
      ok: false,
      error: {
        code: 'index_missing',
        message: "public has no index.html at its root, so the site's address would answer 404. astro builds the site into dist (`npm run build`, or `svc deploy --build`); deploy that folder. Pass --allow-no-index to deploy it anyway.",
      },
    });
    const dry = await cli.svc(['deploy', 'public', '--environment', 'production', '--dry-run'], { cwd: directory });
    expect([dry.code, dry.stderr]).toEqual([1, expect.stringContaining('public has no index.html at its root')]);
    expect((await requestAsHost(cli.url, hostname, '/')).text).toBe(page('Live'));
    expect((await cli.svc(['deploys', 'list', '--json'], { cwd: directory })).json<{ deploys: unknown[] }>().deploys).toHaveLength(1);

    const allowed = await cli.svc(['deploy', 'public', '--environment', 'production', '--allow-no-index', '--json'], { cwd: directory });
    expect(allowed.code, allowed.stderr).toBe(0);
    expect((await requestAsHost(cli.url, hostname, '/robots.txt')).text).toBe('User-agent: *\n');
  });

  it('says "the rest already stored" only when something was, and how to look at the domain before DNS points at the service', async () => {
    const hostname = 'www.upload-note.test';
    const directory = await createProject(cli, 'guards-note', 'site', { domains: { production: [hostname] } });
    await writeTree(directory, { 'index.html': page('One'), 'app.js': 'console.log(1)', 'copy.js': 'console.log(1)' });
    const run = async () => {
      const result = await cli.svc(['deploy', '--environment', 'production'], { cwd: directory });
      expect(result.code, result.stderr).toBe(0);
      return result.stdout;
    };
    const first = await run();
    expect(first).toMatch(/^Deployed 3 files to production \(all uploaded\): dpl-[a-z0-9]+\n/);
    await writeTree(directory, { 'index.html': page('Two') });
    expect(await run()).toMatch(/^Deployed 3 files to production \(1 uploaded, the rest already stored\): /);
    const third = await run();
    expect(third).toMatch(/^Deployed 3 files to production \(nothing uploaded: every file was already stored\): /);

    // The way shown works: a Host header against the service's own address.
    const port = new URL(cli.url).port;
    const hint = `  (before DNS points ${hostname} at the service: curl -H 'Host: ${hostname}' ${cli.url}/, or "127.0.0.1 ${hostname}" in /etc/hosts)\n`;
    expect(third).toContain(`Live at http://${hostname}:${port}\n${hint}Preview: http://dpl-`);
    expect((await requestAsHost(cli.url, hostname, '/')).text).toBe(page('Two'));
  });
});
