import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBackend, sampleResident, startSvc } from '@svc/testkit';
import type { LoadSettings } from './endpoint-bench.js';
import type { LoadRunResult } from './load-runner.js';
import { runLoadProcess, startCeilingServer } from './processes.js';

export interface HostingFigures {
  /** `html` (a 1 KiB page) or `asset` (a 100 KiB content-hashed script). */
  readonly file: 'html' | 'asset';
  readonly bytes: number;
  readonly svc: { readonly requestsPerSecond: number; readonly latencyMs: LoadRunResult['latencyMs']; readonly peakRssBytes: number | null; readonly statusCodes: Record<string, number> };
  readonly ceiling: { readonly requestsPerSecond: number; readonly latencyMs: LoadRunResult['latencyMs'] };
  /** svc's requests per second over the plain node:http static server's, in the same run. */
  readonly ratio: number;
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
      figures.push({
        file,
        bytes: content.length,
        svc: { requestsPerSecond: run.requestsPerSecond, latencyMs: run.latencyMs, peakRssBytes, statusCodes: run.statusCodes },
        ceiling: { requestsPerSecond: plain.requestsPerSecond, latencyMs: plain.latencyMs },
        ratio: run.requestsPerSecond / plain.requestsPerSecond,
      });
    }
    return figures;
  } finally {
    await ceiling.stop();
    await server.stop();
    await backend.cleanup();
    await rm(directory, { recursive: true, force: true });
  }
}

/** A project with the bench's hostname and one live production deploy of `files`, through the CLI API. */
async function deploySite(url: string, token: string, files: Record<string, Buffer>): Promise<void> {
  const call = async (path: string, method: string, body: unknown, contentType = 'application/json'): Promise<Record<string, unknown>> => {
    const response = await fetch(`${url}/api/cli${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      body: body instanceof Buffer ? new Uint8Array(body) : JSON.stringify(body),
    });
    const answer = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
    return answer;
  };
  const config = { workspace: 'bench', project: 'site', framework: 'static', environments: { production: { branch: 'main' } }, domains: { production: [hostname] } };
  await call('/projects', 'POST', { config });
  const manifest = Object.entries(files).map(([path, content]) => ({ path, size: content.length, sha256: createHash('sha256').update(content).digest('hex') }));
  const started = await call('/projects/bench/site/deploys', 'POST', { environment: 'production', files: manifest });
  const id = (started['deploy'] as { id: string }).id;
  for (const file of manifest) await call(`/projects/bench/site/deploys/${id}/files/${file.sha256}`, 'PUT', files[file.path], 'application/octet-stream');
  await call(`/projects/bench/site/deploys/${id}/finalize`, 'POST', {});
}
