import { randomBytes } from 'node:crypto';
import { createBackend, deployThroughApi, startSvc } from '@svc/testkit';
import type { LoadSettings } from './endpoint-bench.js';
import type { LoadRunResult } from './load-runner.js';
import { runLoadProcess } from './processes.js';

type Run = { readonly requestsPerSecond: number; readonly latencyMs: LoadRunResult['latencyMs']; readonly statusCodes: Record<string, number> };

export interface HostingRulesFigures {
  readonly path: string;
  readonly redirectRules: number;
  readonly headerBlocks: number;
  /** The same site without rules, before and after the site with them (A/B/A, one server). */
  readonly without: readonly [Run, Run];
  readonly withRules: Run;
  /** Requests/s with the rules over the mean of the two runs without. */
  readonly share: number;
  /** The headers the page got with the rules (checked: the rules were applied). */
  readonly appliedHeaders: Record<string, string | string[] | undefined>;
}

const plainHost = 'www.plain.bench.test';
const rulesHost = 'www.rules.bench.test';

/**
 * Hosting with 2,000 redirect rules and 100 header blocks against the same site with none
 * (docs/hosting.md#redirects-and-headers): two projects on one `svc serve`
 * (SQLite), the same files, loaded A/B/A in one run. The page asked for is a file, so every
 * request looks for a `!` rule and collects the matching header blocks (several match),
 * which is what every hosted request pays once a site has rules.
 */
export async function benchHostingRules(settings: LoadSettings): Promise<HostingRulesFigures> {
  const page = Buffer.from(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bench</title></head><body>${'<p>Site rules bench.</p>'.repeat(40)}</body></html>`);
  const files: Record<string, Buffer> = { 'index.html': page, 'blog/post.html': page };
  const redirects = redirectRules();
  const headers = headerBlocks();
  const backend = await createBackend('sqlite');
  const token = `svc_bench_${randomBytes(16).toString('hex')}`;
  const server = await startSvc({ args: [...backend.serverArgs, '--cli-rate-limit', '1000000/1h'], env: { SVC_BOOTSTRAP_TOKEN: token }, nodeArgs: settings.nodeArgs });
  try {
    await deploySite(server.url, token, 'plain', plainHost, files);
    await deploySite(server.url, token, 'rules', rulesHost, { ...files, _redirects: Buffer.from(redirects.text), _headers: Buffer.from(headers.text) });
    const path = '/blog/post';
    const applied = await fetchHeaders(server.url, rulesHost, path);
    if (applied['x-bench-block-all'] !== 'yes' || applied['x-bench-blog'] !== 'one, two') throw new Error(`the rules were not applied: ${JSON.stringify(applied)}`);
    const load = (host: string, durationSeconds: number) =>
      runLoadProcess({ url: `${server.url}${path}`, shape: 'json', connections: settings.connections, durationSeconds, tag: 'hosting-rules', get: { host } });
    const measure = async (host: string): Promise<Run> => {
      await load(host, settings.warmupSeconds);
      const run = await load(host, settings.durationSeconds);
      return { requestsPerSecond: run.requestsPerSecond, latencyMs: run.latencyMs, statusCodes: run.statusCodes };
    };
    const first = await measure(plainHost);
    const withRules = await measure(rulesHost);
    const second = await measure(plainHost);
    return {
      path,
      redirectRules: redirects.count,
      headerBlocks: headers.count,
      without: [first, second],
      withRules,
      share: withRules.requestsPerSecond / ((first.requestsPerSecond + second.requestsPerSecond) / 2),
      appliedHeaders: applied,
    };
  } finally {
    await server.stop();
    await backend.cleanup();
  }
}

/**
 * 2,000 rules as a relaunched site carries them: old sections moved one by one, language
 * prefixes (a placeholder first, so every path looks there too), forced rules under the
 * path asked for, and the SPA fallback last.
 */
function redirectRules(): { text: string; count: number } {
  const lines: string[] = [];
  for (let index = 0; index < 1_000; index += 1) lines.push(`/old-${index}/:s /new-${index}/:s`);
  for (let index = 0; index < 600; index += 1) lines.push(`/:l/page-${index} /:l/p-${index} 302`);
  for (let index = 0; index < 399; index += 1) lines.push(`/blog/l-${index}/* /blog/:splat 301!`);
  lines.push('/* /index.html 200');
  return { text: `${lines.join('\n')}\n`, count: lines.length };
}

/** 100 header blocks: one for every page, two of the blog's, and 97 of other sections. */
function headerBlocks(): { text: string; count: number } {
  const blocks = ['/*\n  X-Bench-Block-All: yes\n  X-Frame-Options: DENY', '/blog/*\n  X-Bench-Blog: one\n  Cache-Control: public, max-age=60', '/blog/:post\n  X-Bench-Blog: two'];
  for (let index = 0; index < 97; index += 1) blocks.push(`/section-${index}/*\n  X-Section: ${index}\n  Cache-Control: public, max-age=${index}`);
  return { text: `${blocks.join('\n')}\n`, count: blocks.length };
}

async function deploySite(url: string, token: string, project: string, hostname: string, files: Record<string, Buffer>): Promise<void> {
  const config = { workspace: 'bench', project, framework: 'static', environments: { production: { branch: 'main' } }, domains: { production: [hostname] } };
  const response = await fetch(`${url}/api/cli/projects`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ config }) });
  if (!response.ok) throw new Error(`creating the bench project answered ${response.status}: ${await response.text()}`);
  await deployThroughApi(url, token, { workspace: 'bench', project, environment: 'production' }, files);
}

async function fetchHeaders(url: string, host: string, path: string): Promise<Record<string, string | string[] | undefined>> {
  const { request } = await import('node:http');
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: target.hostname, port: target.port, path, headers: { host }, agent: false }, (response) => {
      response.resume();
      response.on('end', () => (response.statusCode === 200 ? resolve(response.headers) : reject(new Error(`${path} answered ${response.statusCode}`))));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}
