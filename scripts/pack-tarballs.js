#!/usr/bin/env node
// `npm run pack`: builds the workspace and writes one npm tarball per publishable package to
// packs/, for installing the CLI and the webhook verifier outside this checkout
// (README, "Installing outside the checkout"). The packages depend on each other by name,
// so install their tarballs together.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const destination = join(root, 'packs');
/** In dependency order; @svc/cli needs the other five. */
export const packages = ['config', 'webhooks', 'protocol', 'pinpoints', 'server', 'cli'];

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
rmSync(destination, { recursive: true, force: true });
mkdirSync(destination, { recursive: true });
if (!process.argv.includes('--no-build')) execFileSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit' });
for (const name of packages) {
  execFileSync(npm, ['pack', '--silent', '--pack-destination', destination, '--workspace', `packages/${name}`], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}
process.stdout.write(`${readdirSync(destination).sort().map((file) => join('packs', file)).join('\n')}\n`);
