import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchCommit } from './fetch-commit.js';
import { processesWith } from './test-support/processes.js';

/** An https git host on 127.0.0.1 with a self-signed certificate that records what it was sent. */
let server: Server;
let port: number;
let dir: string;
const seen: { authorization: string | undefined; tokenInArgv: number[]; url: string | undefined }[] = [];
const token = `tok_${randomBytes(12).toString('hex')}`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-https-git-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1'], { stdio: 'ignore' });
  server = createServer({ key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }, (request, response) => {
    // While git waits for this answer, no process on the machine shows the token in its command line.
    seen.push({ authorization: request.headers.authorization, tokenInArgv: processesWith(token), url: request.url });
    response.writeHead(404).end('not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** Where a fetch into `work` keeps its cache, checkout and scratch, with a minute to run. */
function places(work: string) {
  return { gitDir: join(work, 'cache.git'), checkoutDir: join(work, 'src'), scratchDir: join(work, 'scratch'), deadline: Date.now() + 60_000, signal: new AbortController().signal };
}

describe('fetching a private https repository', () => {
  it('sends the token as a header, never on a command line or in the log', async () => {
    const log: string[] = [];
    const work = mkdtempSync(join(dir, 'build-'));
    const fetching = fetchCommit({
      repoUrl: `https://127.0.0.1:${port}/acme/site.git`,
      repoToken: token,
      allowLocalRepos: false,
      allowPrivateTargets: true,
      extraGitConfig: [['http.sslVerify', 'false']],
      commit: 'a'.repeat(40),
      branch: 'main',
      ...places(work),
      onLog: (chunk) => log.push(chunk),
    });
    await expect(fetching).rejects.toMatchObject({ code: 'fetch_failed' });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]?.url).toContain('/acme/site.git/info/refs');
    expect(seen[0]?.authorization).toBe(`Basic ${Buffer.from(`x-access-token:${token}`).toString('base64')}`);
    expect(seen.flatMap((request) => request.tokenInArgv)).toEqual([]);
    expect(log.join('')).not.toContain(token);
  });

  it('refuses a loopback host unless private targets are allowed', async () => {
    const work = mkdtempSync(join(dir, 'build-'));
    const before = seen.length;
    await expect(
      fetchCommit({
        repoUrl: `https://127.0.0.1:${port}/acme/site.git`,
        allowLocalRepos: false,
        commit: 'a'.repeat(40),
        branch: 'main',
        ...places(work),
        onLog: () => undefined,
      }),
    ).rejects.toMatchObject({ code: 'fetch_failed', message: expect.stringContaining('loopback') });
    expect(seen.length).toBe(before);
  });
});
