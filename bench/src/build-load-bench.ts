import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBackend, createForm, createTestGitRepo, pushWebhook, runSvc, startSvc } from '@svc/testkit';
import type { LoadSettings } from './endpoint-bench.js';
import type { LoadRunResult } from './load-runner.js';
import { runLoadProcess } from './processes.js';

export interface BuildLoadFigures {
  /** The form endpoint (SQLite, JSON posts) alone, before the build and after it. */
  readonly alone: LoadRunResult;
  readonly aloneAfter: LoadRunResult;
  /** The same load while a CPU- and memory-heavy build runs. */
  readonly duringBuild: LoadRunResult;
  /** What the build did meanwhile: its threads, the memory it held, the hashing it got done. */
  readonly build: { readonly threads: number; readonly heldMiB: number; readonly hashesPerSecond: number | null; readonly status: string; readonly overlapped: boolean; readonly memoryCap: string | null };
}

/** Memory the build holds and keeps writing to (Buffers, outside node's heap). */
const heldMiB = 384;

/**
 * A repository whose build, for `seconds`, burns CPU in as many threads as the machine has
 * cores (SHA-256 over and over) while holding {@link heldMiB} MiB and writing through it,
 * then reports what it got done and writes its output.
 */
function heavySite(seconds: number, threads: number): Record<string, string> {
  const script = `
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
const held = [];
for (let i = 0; i < ${heldMiB / 16}; i += 1) held.push(Buffer.alloc(16 * 1024 * 1024, i));
const until = Date.now() + ${seconds * 1000};
const burn = \`
  const { createHash } = require('node:crypto');
  const { parentPort } = require('node:worker_threads');
  const block = Buffer.alloc(4096, 7);
  let hashes = 0;
  while (Date.now() < ${'$'}{until}) { for (let i = 0; i < 200; i += 1) createHash('sha256').update(block).digest(); hashes += 200; }
  parentPort.postMessage(hashes);
\`;
console.log('heavy build running: ${threads} threads, ${heldMiB} MiB held');
const counts = ${threads} > 1 ? Array.from({ length: ${threads} - 1 }, () => new Promise((resolve) => new Worker(burn, { eval: true }).once('message', resolve))) : [];
// The main thread writes through what it holds between hashes, so the memory stays in use.
let hashes = 0;
let page = 0;
const block = Buffer.alloc(4096, 7);
while (Date.now() < until) {
  for (let i = 0; i < 100; i += 1) createHash('sha256').update(block).digest();
  hashes += 100;
  const buffer = held[page % held.length];
  buffer.fill(page & 255, 0, 1024 * 1024);
  page += 1;
}
const total = hashes + (await Promise.all(counts)).reduce((sum, count) => sum + count, 0);
console.log('heavy build done: ' + Math.round(total / ${seconds}) + ' hashes/s');
mkdirSync('dist', { recursive: true });
writeFileSync('dist/index.html', '<!doctype html><h1>heavy build</h1>');
`;
  return {
    'package.json': JSON.stringify({ name: 'heavy', version: '1.0.0', private: true, scripts: { build: 'node build.mjs' } }),
    'package-lock.json': JSON.stringify({ name: 'heavy', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'heavy', version: '1.0.0' } } }),
    'build.mjs': script,
  };
}

/**
 * The form endpoint's p99 while a build runs (docs/hosting.md, "Time, processes, memory and
 * priority"): one `svc serve` on SQLite takes JSON posts as the endpoint bench sends them,
 * alone, then while a build of a pushed commit burns every core and holds memory (at the
 * lowest CPU and I/O priority, in its memory cap), then alone again once the build ended.
 * The load starts once the build's script runs, and the build outlasts it.
 */
export async function benchBuildLoad(settings: LoadSettings, threads: number): Promise<BuildLoadFigures> {
  const backend = await createBackend('sqlite');
  const store = await backend.openStore();
  const token = `svc_bench_${randomBytes(16).toString('hex')}`;
  const repo = await createTestGitRepo();
  const cwd = await mkdtemp(join(tmpdir(), 'svc-bench-build-'));
  try {
    const form = await createForm(store);
    const server = await startSvc({
      args: [...backend.serverArgs, '--rate-limit', '1000000/1h', '--allow-local-repos', '--build-poll-interval', '200ms', '--build-memory', '1GiB', '--build-timeout', '10m'],
      env: { SVC_BOOTSTRAP_TOKEN: token },
      nodeArgs: settings.nodeArgs,
    });
    try {
      const url = `${server.url}/api/f/${form.endpointId}`;
      const load = async (label: string): Promise<LoadRunResult> => {
        await runLoadProcess({ url, shape: 'json', connections: settings.connections, durationSeconds: settings.warmupSeconds, tag: `${label}w${Date.now().toString(36)}` });
        return runLoadProcess({ url, shape: 'json', connections: settings.connections, durationSeconds: settings.durationSeconds, tag: `${label}r${Date.now().toString(36)}` });
      };
      const alone = await load('a');

      const env = { SVC_API_URL: server.url, SVC_TOKEN: token, SVC_CONFIG_DIR: join(cwd, '.config') };
      const workspace = `bench-${randomBytes(3).toString('hex')}`;
      const init = await runSvc(['init', '--workspace', workspace, '--project', 'heavy', '--framework', 'astro', '--branch', 'main', '--yes'], { cwd, env });
      if (init.code !== 0) throw new Error(`svc init failed: ${init.stderr}`);
      const connected = await runSvc(['git', 'connect', '--repo', repo.path, '--json'], { cwd, env });
      if (connected.code !== 0) throw new Error(`svc git connect failed: ${connected.stderr}`);
      const { pushUrl, pushSecret } = (JSON.parse(connected.stdout) as { git: { pushUrl: string; pushSecret: string } }).git;
      // Long enough to outlast the load on a busy machine too (starting autocannon takes a while there).
      const seconds = settings.warmupSeconds + settings.durationSeconds + 30;
      const commit = await repo.commit('main', heavySite(seconds, threads));
      const webhook = pushWebhook('github', pushSecret, { ref: 'refs/heads/main', after: commit });
      const answer = await fetch(pushUrl, { method: 'POST', headers: webhook.headers, body: webhook.body });
      const { build } = (await answer.json()) as { build: { id: string } };
      const headers = { authorization: `Bearer ${token}` };
      const base = `${server.url}/api/cli/projects/${workspace}/heavy/builds/${build.id}`;
      const read = async (): Promise<{ status: string; error: string | null; log: string }> => {
        const shown = (await (await fetch(base, { headers })).json()) as { build: { status: string; error: string | null } };
        const logged = (await (await fetch(`${base}/log`, { headers })).json()) as { log: string };
        return { ...shown.build, log: logged.log };
      };
      for (;;) {
        const state = await read();
        if (state.log.includes('heavy build running')) break;
        if (state.status !== 'queued' && state.status !== 'building') throw new Error(`the heavy build ${state.status} before its script ran: ${state.error ?? ''}\n${state.log.slice(-2000)}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const duringBuild = await load('b');
      const overlapped = (await read()).status === 'building';
      let ended = await read();
      while (ended.status === 'queued' || ended.status === 'building') {
        await new Promise((resolve) => setTimeout(resolve, 250));
        ended = await read();
      }
      const aloneAfter = await load('c');
      const rate = /heavy build done: (\d+) hashes\/s/.exec(ended.log);
      const memoryCap = /^Memory cap: (.*)$/m.exec(ended.log)?.[1] ?? null;
      return { alone, aloneAfter, duringBuild, build: { threads, heldMiB, hashesPerSecond: rate ? Number(rate[1]) : null, status: ended.status, overlapped, memoryCap } };
    } finally {
      const exit = await server.stop();
      if (exit !== 0) process.stderr.write(`svc serve exited with ${exit}\n${server.stderr()}\n`);
    }
  } finally {
    await store.close();
    await repo.remove();
    await rm(cwd, { recursive: true, force: true });
    await backend.cleanup();
  }
}
