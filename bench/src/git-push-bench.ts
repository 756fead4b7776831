import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectGitProject, createBackend, createTestGitRepo, pushWebhook, quantiles, startSvc, type BackendName } from '@svc/testkit';

export interface GitPushFigures {
  readonly backend: BackendName;
  readonly files: number;
  readonly pushes: number;
  /** From the push webhook's request to the deploy serving the pushed commit. */
  readonly pushToLiveMs: { readonly p50: number; readonly p99: number; readonly max: number };
}

/**
 * Push → live for a 100-file static site (docs/hosting.md, "Deploys from git"): each push
 * changes one page, and the time is taken from sending the push webhook until the
 * environment's address serves the pushed commit's page. One push at a time, so each
 * build is measured alone.
 */
export async function benchGitPush(backendName: BackendName, pushes: number): Promise<GitPushFigures> {
  const backend = await createBackend(backendName);
  const token = `svc_bench_${randomBytes(16).toString('hex')}`;
  const server = await startSvc({ args: [...backend.serverArgs, '--allow-local-repos', '--build-poll-interval', '200ms'], env: { SVC_BOOTSTRAP_TOKEN: token } });
  const repo = await createTestGitRepo();
  const cwd = await mkdtemp(join(tmpdir(), 'svc-bench-git-'));
  try {
    const workspace = `bench-${randomBytes(3).toString('hex')}`;
    const { pushUrl, pushSecret } = await connectGitProject(server.url, token, repo, cwd, workspace);
    const site: Record<string, string> = {};
    for (let n = 0; n < 99; n++) site[`pages/page-${n}.html`] = `<!doctype html><h1>page ${n}</h1>${'<p>Static site bench.</p>'.repeat(40)}`;
    const headers = { authorization: `Bearer ${token}` };
    const times: number[] = [];
    for (let n = 0; n <= pushes; n++) {
      const commit = await repo.commit('main', { ...(n === 0 ? site : {}), 'index.html': `<!doctype html><h1>push ${n}</h1>` });
      const webhook = pushWebhook('github', pushSecret, { ref: 'refs/heads/main', after: commit });
      const started = performance.now();
      const answer = await fetch(pushUrl, { method: 'POST', headers: webhook.headers, body: webhook.body });
      const { build } = (await answer.json()) as { build: { id: string } };
      for (;;) {
        const shown = await fetch(`${server.url}/api/cli/projects/${workspace}/site/builds/${build.id}`, { headers });
        const { build: state } = (await shown.json()) as { build: { status: string; error: string | null } };
        if (state.status === 'succeeded') break;
        if (state.status !== 'queued' && state.status !== 'building') throw new Error(`build ${build.id} ${state.status}: ${state.error ?? ''}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // The first push stores the whole site; the rest are what a change costs.
      if (n > 0) times.push(performance.now() - started);
    }
    const at = quantiles(times);
    return { backend: backendName, files: 100, pushes, pushToLiveMs: { p50: at(0.5), p99: at(0.99), max: Math.round(Math.max(...times)) } };
  } finally {
    await server.stop();
    await repo.remove();
    await rm(cwd, { recursive: true, force: true });
    await backend.cleanup();
  }
}
