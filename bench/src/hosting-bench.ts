import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBackend, deployThroughApi, sampleResident, startSvc } from '@svc/testkit';
import type { LoadSettings } from './endpoint-bench.js';
import type { LoadRunResult } from './load-runner.js';
import { runLoadProcess, startCeilingServer } from './processes.js';

export interface HostingFigures {
  /** `html` (a 1 KiB page) or `asset` (a 100 KiB content-hashed script). */
  readonly file: 'html' | 'asset';
  readonly bytes: number;
  readonly svc: { readonly requestsPerSecond: number; readonly latencyMs: LoadRunResult['latencyMs']; readonly peakRssBytes: number | null; readonly statusCodes: Record<string, number> };
  readonly ceiling: { readonly requestsPerSecond: number; readonly latencyMs: LoadRunResult['latencyMs'] };
  /** The same plain server answering from memory (files read once at start). */
  readonly memoryCeiling: { readonly requestsPerSecond: number; readonly latencyMs: LoadRunResult['latencyMs'] };
  /** svc's requests per second over the plain node:http static server's, in the same run. */
  readonly ratio: number;
  /** svc's requests per second over the in-memory plain server's. */
  readonly memoryRatio: number;
}

const hostname = 'www.bench.test';

/**
 * Static hosting on SQLite (docs/hosting.md): a small HTML page and a 100 KiB asset served by
 * `svc serve` by Host, against a plain node:http static server reading the same files from
 * disk, each loaded the same way in its own process.
 */
export async function benchHosting(settings: LoadSettings): Promise<HostingFigures[]> {
  const html = Buffer.from(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench</title></head><body>${'<p>Static hosting bench.</p>'.repeat(32)}</body></html>`);
  const asset = Buffer.from(randomBytes(75 * 1024).toString('base64').slice(0, 100 * 1024));
  const files = { 'index.html': html, 'app.3f9a1c2b.js': asset };
  const directory = await mkdtemp(join(tmpdir(), 'svc-bench-site-'));
  for (const [name, content] of Object.entries(files)) await writeFile(join(directory, name), content);
  const backend = await createBackend('sqlite');
  const token = `svc_bench_${randomBytes(16).toString('hex')}`;
  const server = await startSvc({ args: [...backend.serverArgs, '--cli-rate-limit', '1000000/1h'], env: { SVC_BOOTSTRAP_TOKEN: token }, nodeArgs: settings.nodeArgs });
  const ceiling = await startCeilingServer([], './static-ceiling-server.js', [directory]);
  const memoryCeiling = await startCeilingServer([], './static-ceiling-server.js', [directory, '--memory']);
  try {
    await deploySite(server.url, token, files);
    const figures: HostingFigures[] = [];
    for (const [file, path, content] of [['html', '/', html], ['asset', '/app.3f9a1c2b.js', asset]] as const) {
      const load = (url: string, host: string, durationSeconds: number) =>
        runLoadProcess({ url: `${url}${path}`, shape: 'json', connections: settings.connections, durationSeconds, tag: 'hosting', get: { host } });
      await load(server.url, hostname, settings.warmupSeconds);
      const sampler = sampleResident(server.pid);
      const run = await load(server.url, hostname, settings.durationSeconds);
      const peakRssBytes = await sampler.stop();
      await load(ceiling.url, '127.0.0.1', settings.warmupSeconds);
      const plain = await load(ceiling.url, '127.0.0.1', settings.durationSeconds);
      await load(memoryCeiling.url, '127.0.0.1', settings.warmupSeconds);
      const fromMemory = await load(memoryCeiling.url, '127.0.0.1', settings.durationSeconds);
      figures.push({
        file,
        bytes: content.length,
        svc: { requestsPerSecond: run.requestsPerSecond, latencyMs: run.latencyMs, peakRssBytes, statusCodes: run.statusCodes },
        ceiling: { requestsPerSecond: plain.requestsPerSecond, latencyMs: plain.latencyMs },
        memoryCeiling: { requestsPerSecond: fromMemory.requestsPerSecond, latencyMs: fromMemory.latencyMs },
        ratio: run.requestsPerSecond / plain.requestsPerSecond,
        memoryRatio: run.requestsPerSecond / fromMemory.requestsPerSecond,
      });
    }
    return figures;
  } finally {
    await ceiling.stop();
    await memoryCeiling.stop();
    await server.stop();
    await backend.cleanup();
    await rm(directory, { recursive: true, force: true });
  }
}

/** A project with the bench's hostname and one live production deploy of `files`, through the CLI API. */
async function deploySite(url: string, token: string, files: Record<string, Buffer>): Promise<void> {
  const config = { workspace: 'bench', project: 'site', framework: 'static', environments: { production: { branch: 'main' } }, domains: { production: [hostname] } };
  const response = await fetch(`${url}/api/cli/projects`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ config }) });
  if (!response.ok) throw new Error(`creating the bench project answered ${response.status}: ${await response.text()}`);
  await deployThroughApi(url, token, { workspace: 'bench', project: 'site', environment: 'production' }, files);
}
