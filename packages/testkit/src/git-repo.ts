import { execFile } from 'node:child_process';
import { createHmac, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A real bare git repository made for a test, and a work tree that pushes to it. */
export interface TestGitRepo {
  /** The bare repository's path: what `svc git connect --repo` takes with `--allow-local-repos`. */
  readonly path: string;
  /** Commits `files` (added or replaced; null removes one) on `branch` and pushes; returns the commit's sha. */
  commit(branch: string, files: Record<string, string | null>, message?: string): Promise<string>;
  remove(): Promise<void>;
}

const gitEnv = { GIT_AUTHOR_NAME: 'test', GIT_AUTHOR_EMAIL: 'test@example.com', GIT_COMMITTER_NAME: 'test', GIT_COMMITTER_EMAIL: 'test@example.com', GIT_CONFIG_NOSYSTEM: '1', HOME: tmpdir() };

export async function createTestGitRepo(): Promise<TestGitRepo> {
  const root = await mkdtemp(join(tmpdir(), 'svc-git-'));
  const bare = join(root, 'site.git');
  const work = join(root, 'work');
  const git = async (cwd: string, ...args: string[]): Promise<string> => (await run('git', args, { cwd, env: { ...process.env, ...gitEnv } })).stdout.trim();
  await run('git', ['init', '-q', '--bare', bare]);
  await run('git', ['init', '-q', work]);
  await git(work, 'remote', 'add', 'origin', bare);
  let counter = 0;
  return {
    path: bare,
    commit: async (branch, files, message) => {
      const branches = await git(work, 'branch', '--list', branch);
      const current = await git(work, 'rev-parse', '--abbrev-ref', 'HEAD').catch(() => '');
      if (current !== branch) {
        const exists = branches !== '' || (await git(work, 'ls-remote', '--heads', 'origin', branch)) !== '';
        if (exists) await git(work, 'checkout', '-q', branch);
        else await git(work, 'checkout', '-q', '--orphan', branch).then(() => git(work, 'rm', '-rfq', '--cached', '--ignore-unmatch', '.'));
      }
      for (const [path, text] of Object.entries(files)) {
        if (text === null) {
          await rm(join(work, path), { force: true });
          continue;
        }
        await mkdir(dirname(join(work, path)), { recursive: true });
        await writeFile(join(work, path), text);
      }
      await git(work, 'add', '-A');
      counter += 1;
      await git(work, 'commit', '-q', '--allow-empty', '-m', message ?? `change ${counter}`);
      await git(work, 'push', '-q', '--force', 'origin', `HEAD:refs/heads/${branch}`);
      return git(work, 'rev-parse', 'HEAD');
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

export type PushHost = 'github' | 'gitea' | 'gitlab';

/** What a push webhook says: the ref, the pushed commit, and optionally more of the body and the host's delivery id. */
export interface PushWebhookInput {
  readonly ref: string;
  readonly after: string;
  readonly deleted?: boolean;
  /** The host's id of the delivery (a random one when not given, as hosts send). */
  readonly deliveryId?: string;
  /** The body's `commits` (none when not given). */
  readonly commits?: readonly unknown[];
}

/** A push webhook as `host` sends it for a push of `commit` to `ref`, signed with `secret`, with the host's delivery id header. */
export function pushWebhook(host: PushHost, secret: string, push: PushWebhookInput): { headers: Record<string, string>; body: string } {
  const body = JSON.stringify({ ref: push.ref, before: '0'.repeat(40), after: push.after, ...(push.deleted === undefined ? {} : { deleted: push.deleted }), repository: { full_name: 'acme/site' }, commits: push.commits ?? [] });
  const hmac = createHmac('sha256', secret).update(body).digest('hex');
  const deliveryId = push.deliveryId ?? randomUUID();
  const headers: Record<string, string> =
    host === 'github'
      ? { 'x-github-event': 'push', 'x-github-delivery': deliveryId, 'x-hub-signature-256': `sha256=${hmac}` }
      : host === 'gitea'
        ? { 'x-gitea-event': 'push', 'x-gitea-delivery': deliveryId, 'x-gitea-signature': hmac }
        : { 'x-gitlab-event': 'Push Hook', 'x-gitlab-event-uuid': deliveryId, 'x-gitlab-token': secret };
  return { headers: { 'content-type': 'application/json', ...headers }, body };
}
