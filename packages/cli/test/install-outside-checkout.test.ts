// Packs the built workspace (`npm run pack`; build first) and installs it where a user would.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../../../', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * What the README's "Installing outside the checkout" promises: the tarballs of
 * `npm run pack` install into a site's own project, whose `npx svc` is then our CLI (not
 * the unrelated public `svc` package) and whose code can import the webhook verifier.
 * Install scripts are skipped here (no native SQLite build, which `svc serve` needs and
 * `svc validate` does not), and packages come from npm's cache when it has them.
 */
describe('installing the CLI and the verifier outside the checkout', () => {
  let site: string;

  beforeAll(async () => {
    await run(process.execPath, [join(root, 'scripts/pack-tarballs.js'), '--no-build'], { cwd: root });
    const tarballs = (await readdir(join(root, 'packs'))).filter((name) => name.endsWith('.tgz')).map((name) => join(root, 'packs', name));
    expect(tarballs.map((path) => path.split('/').at(-1))).toEqual(['svc-cli-0.1.0.tgz', 'svc-config-0.1.0.tgz', 'svc-pinpoints-0.1.0.tgz', 'svc-protocol-0.1.0.tgz', 'svc-server-0.1.0.tgz', 'svc-webhooks-0.1.0.tgz']);
    site = await mkdtemp(join(tmpdir(), 'svc-outside-'));
    await writeFile(join(site, 'package.json'), JSON.stringify({ name: 'client-site', private: true, type: 'module' }));
    await run(npm, ['install', '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', ...tarballs], { cwd: site, timeout: 240_000 });
  }, 300_000);
  afterAll(async () => {
    if (site) await rm(site, { recursive: true, force: true });
  });

  it('runs this CLI as `npx svc`', async () => {
    const version = await run(npm, ['exec', '--offline', '--', 'svc', '--version', '--json'], { cwd: site });
    expect(JSON.parse(version.stdout)).toEqual({ ok: true, version: '0.1.0' });
    await writeFile(join(site, 'service.json'), JSON.stringify({ workspace: 'acme', project: 'site', framework: 'static', environments: { production: { branch: 'main' } } }));
    const validate = await run(npm, ['exec', '--offline', '--', 'svc', 'validate', '--json'], { cwd: site });
    expect(JSON.parse(validate.stdout)).toEqual({ ok: true });
  });

  it('imports @svc/webhooks and verifies what it signed', async () => {
    const script = `import { sign, verify } from '@svc/webhooks';
const body = '{"id":"evt_1"}';
const header = sign('whsec_test', body, Math.floor(Date.now() / 1000));
const verified = verify(body, header, 'whsec_test');
let tampered = 'accepted';
try { verify('{"id":"evt_2"}', header, 'whsec_test'); } catch (error) { tampered = error.code; }
console.log(JSON.stringify({ timestamp: typeof verified.timestamp, tampered }));`;
    await writeFile(join(site, 'check.mjs'), script);
    const checked = await run(process.execPath, ['check.mjs'], { cwd: site });
    expect(JSON.parse(checked.stdout)).toEqual({ timestamp: 'number', tampered: 'signature_mismatch' });
  });
});
