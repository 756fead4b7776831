// The build queue between tenants and over time (docs/hosting.md, "Builds"): claims go round
// robin across workspaces, so one tenant's queue never holds another's build behind it; a
// workspace has a cap of running and queued builds, past which a push is refused (429
// too_many_builds) while a newer push to a waiting environment still replaces its build;
// and a push builds only the branch's head or a descendant of what is live, so a replayed
// push never puts an old commit back live. Real `svc serve` processes and repositories.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnvironment, createTestGitRepo, GitBuildServer, htmlPage, selectBackend, uniqueName, type GitBuildProject, type TestEnvironment, type TestGitRepo } from '@svc/testkit';

const backend = await selectBackend();

describe.runIf(backend.available)(`the build queue, on ${backend.name}`, () => {
  let environment: TestEnvironment;
  let repo: TestGitRepo;
  const token = `svc_test_${randomBytes(16).toString('hex')}`;

  beforeAll(async () => {
    environment = await createTestEnvironment();
    repo = await createTestGitRepo();
  }, 180_000);
  afterAll(async () => {
    await repo?.remove();
    await environment?.cleanup();
  });

  it('caps a workspace\'s running and queued builds, and claims round robin across workspaces', { timeout: 300_000 }, async () => {
    // A server that only takes pushes (no build worker) queues them all first.
    const web = await GitBuildServer.start(environment.serverArgs, token, ['--role', 'web', '--builds-per-workspace', '3']);
    let busy: GitBuildProject[];
    let other: GitBuildProject;
    const queuedIds = new Map<GitBuildProject, string>();
    try {
      const busyWorkspace = uniqueName('busy');
      busy = [];
      for (const name of ['one', 'two', 'three', 'four']) busy.push(await web.connect(busyWorkspace, name, repo));
      other = await web.connect(uniqueName('other'), 'site', repo);
      const commit = await repo.commit('main', { 'index.html': htmlPage('queued') });
      for (const project of busy.slice(0, 3)) queuedIds.set(project, await web.queued(project, commit));

      const refused = await web.push(busy[3]!, commit);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ ok: false, error: 'too_many_builds' });
      // The push that built nothing explains itself in the inbound log.
      const listed = await web.svc(['builds', 'list', '--all', '--json'], busy[3]!.cwd);
      expect(JSON.parse(listed.stdout)).toMatchObject({ entries: [{ kind: 'delivery', delivery: { verdict: 'refused', reason: expect.stringContaining('--builds-per-workspace 3') } }] });
      // The other tenant is not held to the busy one's cap.
      queuedIds.set(other, await web.queued(other, commit));
      // A newer push to an environment whose build still waits replaces it: never refused.
      queuedIds.set(busy[0]!, await web.queued(busy[0]!, commit));
    } finally {
      await web.server.stop();
    }

    const worker = await GitBuildServer.start(environment.serverArgs, token, ['--build-concurrency', '1']);
    try {
      const started = new Map<GitBuildProject, number>();
      for (const [project, id] of queuedIds) {
        const build = await worker.ended(project, id);
        expect(build.status, build.log).toBe('succeeded');
        started.set(project, Date.parse(build.startedAt!));
      }
      // Queued in the order two, three, other, one: first in, first out would start the busy
      // workspace's two builds before the other's; round robin starts the other's second.
      const order = [...started.entries()].sort(([, a], [, b]) => a - b).map(([project]) => project.project === 'site' ? 'other' : project.project);
      expect(order).toEqual(['two', 'other', 'three', 'one']);
    } finally {
      await worker.server.stop();
    }
  });

  it('never builds a replayed push of an older commit; builds the head, and a late push that descends from what is live', { timeout: 300_000 }, async () => {
    const server = await GitBuildServer.start(environment.serverArgs, token, []);
    try {
      const project = await server.connect(uniqueName('replay'), 'site', repo);
      const old = await repo.commit('main', { 'index.html': htmlPage('old') });
      const oldBuild = await server.ended(project, await server.queued(project, old));
      const current = await repo.commit('main', { 'index.html': htmlPage('current') });
      const currentBuild = await server.ended(project, await server.queued(project, current));
      expect([oldBuild.status, currentBuild.status]).toEqual(['succeeded', 'succeeded']);

      const replayed = await server.ended(project, await server.queued(project, old));
      expect(replayed.status).toBe('canceled');
      expect(replayed.error).toContain(`not built: ${old.slice(0, 12)} is not the head of main (${current.slice(0, 12)} is), nor does it descend from ${current.slice(0, 12)}, live on production`);
      expect(replayed.deploy).toBeNull();
      expect((await server.live(project)).production).toBe(currentBuild.deploy);

      // A push whose webhook arrives after a newer commit reached the host: not the head, but ahead of what is live.
      const late = await repo.commit('main', { 'index.html': htmlPage('late') });
      await repo.commit('main', { 'index.html': htmlPage('newest') });
      const lateBuild = await server.ended(project, await server.queued(project, late));
      expect(lateBuild.status, lateBuild.log).toBe('succeeded');
      expect((await server.live(project)).production).toBe(lateBuild.deploy);
    } finally {
      await server.server.stop();
    }
  });
});
