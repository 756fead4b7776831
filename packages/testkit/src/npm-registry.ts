import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A package a {@link TestNpmRegistry} serves: version 1.0.0 with these files. */
export type TestPackage = Readonly<Record<string, string>>;

export interface TestNpmRegistry {
  /** `http://127.0.0.1:<port>/`, what a project's `.npmrc` names as its registry. */
  readonly url: string;
  /** Every path asked for, in order. */
  readonly requests: readonly string[];
  close(): Promise<void>;
}

/**
 * A tiny npm registry on loopback for tests: each package's metadata at `/<name>` and its
 * tarball at `/<name>/-/<name>-1.0.0.tgz` (made with `tar`), with the integrity npm checks.
 */
export async function startTestNpmRegistry(packages: Readonly<Record<string, TestPackage>>): Promise<TestNpmRegistry> {
  const root = await mkdtemp(join(tmpdir(), 'svc-registry-'));
  const tarballs = new Map<string, Buffer>();
  for (const [name, files] of Object.entries(packages)) {
    const folder = join(root, name, 'package');
    for (const [path, text] of Object.entries({ 'package.json': JSON.stringify({ name, version: '1.0.0' }), ...files })) {
      await mkdir(dirname(join(folder, path)), { recursive: true });
      await writeFile(join(folder, path), text);
    }
    await run('tar', ['-czf', join(root, `${name}.tgz`), '-C', join(root, name), 'package']);
    tarballs.set(name, await readFile(join(root, `${name}.tgz`)));
  }
  const requests: string[] = [];
  const server: Server = createServer((incoming, answer) => {
    const path = new URL(incoming.url ?? '/', 'http://registry').pathname;
    requests.push(path);
    const [, name, dash, file] = path.split('/');
    const tarball = name === undefined ? undefined : tarballs.get(decodeURIComponent(name));
    if (tarball === undefined) return void answer.writeHead(404).end('{}');
    if (dash === '-' && file === `${name}-1.0.0.tgz`) return void answer.writeHead(200, { 'content-type': 'application/octet-stream' }).end(tarball);
    const address = server.address() as AddressInfo;
    const dist = { tarball: `http://127.0.0.1:${address.port}/${name}/-/${name}-1.0.0.tgz`, shasum: createHash('sha1').update(tarball).digest('hex'), integrity: `sha512-${createHash('sha512').update(tarball).digest('base64')}` };
    answer.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name, 'dist-tags': { latest: '1.0.0' }, versions: { '1.0.0': { name, version: '1.0.0', dist } } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      await rm(root, { recursive: true, force: true });
    },
  };
}
