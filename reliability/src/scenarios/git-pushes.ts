import { randomBytes } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectGitProject, createForm, createTestGitRepo, pushWebhook, quantiles, runPool, type PushHost } from '@svc/testkit';
import type { ScenarioResult } from '../harness/report.js';
import { withScenario, type ScenarioOptions } from '../harness/scenario.js';

export interface GitPushesOptions extends ScenarioOptions {
  /** Pushes to main, one after another, each answered before the next. */
  readonly pushes: number;
  /** Form submissions posted meanwhile. */
  readonly submissions: number;
  readonly concurrency: number;
  /** How long every build may take to end once the last push is in. */
  readonly settleMs: number;
}

interface Build {
  id: string;
  status: string;
  error: string | null;
  deploy: string | null;
  commit: string | null;
}

const hosts: readonly PushHost[] = ['github', 'gitea', 'gitlab'];

/**
 * Pushes under form load (docs/hosting.md, "Deploys from git"): a repository pushed to again
 * and again while the form endpoint takes submissions. Every push must end live, failed
 * with a reason, or canceled naming the newer build that replaced it; none may stay queued
 * or building, the last push must be what production serves, and every submission must be
 * accepted. Reports the form endpoint's latency while builds ran.
 */
export function runGitPushesScenario(options: GitPushesOptions): Promise<ScenarioResult> {
  return withScenario({ name: 'git-pushes', backend: options.backend, log: options.log }, async ({ store, problems, log, startServer }) => {
    const token = `svc_rel_${randomBytes(16).toString('hex')}`;
    log(`git pushes on ${options.backend}: ${options.pushes} pushes while ${options.submissions} submissions arrive`);
    const server = await startServer({ args: ['--allow-local-repos', '--rate-limit', '1000000/1m', '--build-poll-interval', '200ms'], env: { SVC_BOOTSTRAP_TOKEN: token } });
    const repo = await createTestGitRepo();
    try {
      const cwd = await mkdtemp(join(tmpdir(), 'svc-rel-git-'));
      const workspace = `rel-${randomBytes(3).toString('hex')}`;
      const { pushUrl, pushSecret } = await connectGitProject(server.url, token, repo, cwd, workspace);
      const form = await createForm(store);

      const latencies: number[] = [];
      let refused = 0;
      const load = runPool(options.submissions, options.concurrency, async (n) => {
        const started = performance.now();
        const response = await fetch(`${server.url}/api/f/${form.endpointId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n }) });
        await response.arrayBuffer();
        latencies.push(performance.now() - started);
        if (response.status !== 200) refused += 1;
      });

      const ids: string[] = [];
      let lastCommit = '';
      for (let n = 0; n < options.pushes; n++) {
        lastCommit = await repo.commit('main', { 'index.html': `<!doctype html><h1>push ${n}</h1>`, [`page-${n}.html`]: `<p>${n}</p>` });
        const { headers, body } = pushWebhook(hosts[n % hosts.length]!, pushSecret, { ref: 'refs/heads/main', after: lastCommit });
        const answer = await fetch(pushUrl, { method: 'POST', headers, body });
        const parsed = (await answer.json()) as { build?: { id: string } };
        if (answer.status !== 202 || parsed.build === undefined) problems.add(`push ${n} answered ${answer.status}`);
        else ids.push(parsed.build.id);
      }
      await load;

      const read = async (id: string): Promise<Build> => {
        const response = await fetch(`${server.url}/api/cli/projects/${workspace}/site/builds/${id}`, { headers: { authorization: `Bearer ${token}` } });
        return ((await response.json()) as { build: Build }).build;
      };
      const deadline = Date.now() + options.settleMs;
      let builds: Build[] = [];
      for (;;) {
        builds = await Promise.all(ids.map(read));
        if (builds.every((build) => build.status !== 'queued' && build.status !== 'building') || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      const count = (status: string) => builds.filter((build) => build.status === status).length;
      for (const build of builds) {
        if (build.status === 'queued' || build.status === 'building') problems.add(`build ${build.id} still ${build.status} ${options.settleMs} ms after the last push`);
        if ((build.status === 'failed' || build.status === 'canceled') && !build.error) problems.add(`build ${build.id} ${build.status} without a reason`);
      }
      const last = builds.at(-1);
      if (last?.status !== 'succeeded' || last.commit !== lastCommit) problems.add(`the last push ended ${last?.status ?? 'unknown'}, not live`);
      const listed = await fetch(`${server.url}/api/cli/projects/${workspace}/site/deploys`, { headers: { authorization: `Bearer ${token}` } });
      const live = ((await listed.json()) as { live: { production: string | null } }).live.production;
      if (last?.deploy !== live) problems.add(`production serves ${live}, not the last push's deploy ${last?.deploy ?? 'none'}`);
      if (refused > 0) problems.add(`${refused} submissions were not accepted while builds ran`);
      const at = quantiles(latencies);
      log(`  ${count('succeeded')} live, ${count('canceled')} replaced, ${count('failed')} failed; form p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
      return { pushes: ids.length, succeeded: count('succeeded'), canceled: count('canceled'), failed: count('failed'), 'form p50 ms': at(0.5), 'form p99 ms': at(0.99) };
    } finally {
      await repo.remove();
    }
  });
}
