// The build queue's reads (docs/hosting.md, "Deploys from git"): lists leave the logs in the
// database and cut the deploys page's log ends there; whether a build waits.
import { describe, expect, it } from 'vitest';
import { createForm, selectBackend } from '@svc/testkit';
import { useBackendStore } from '@svc/testkit/vitest';
import { hasQueuedBuild, listBuilds, listBuildsWithLogEnds, queueBuild } from '../../src/store/queries/builds.js';
import type { BuildRow } from '../../src/store/schema.js';

const backend = await selectBackend();

describe.runIf(backend.available)(`build queries on ${backend.name}`, () => {
  const suite = useBackendStore();

  const build = (projectId: string, id: string, environment: string, log: string, state: BuildRow['state'] = 'failed'): BuildRow => ({
    id,
    project_id: projectId,
    environment,
    branch: 'main',
    git_commit: null,
    trigger: 'push',
    created_by: 'git push',
    state,
    error: null,
    log,
    deploy_id: null,
    lease_owner: null,
    lease_expires_at: null,
    created_at: Date.now(),
    started_at: null,
    finished_at: null,
  });

  it('lists builds without their logs, and with the last characters of each log when asked', async () => {
    const { projectId } = await createForm(suite.store);
    const long = `${'é'.repeat(10_000)}the end`;
    await suite.store.transaction(async (trx) => {
      await trx.insertInto('builds').values(build(projectId, 'bld_01', 'production', 'short log\n')).execute();
      await trx.insertInto('builds').values(build(projectId, 'bld_02', 'staging', long)).execute();
    });
    const listed = await listBuilds(suite.store.db, projectId, undefined, 10);
    expect(listed.map((row) => row.id)).toEqual(['bld_02', 'bld_01']);
    expect(listed.every((row) => !('log' in row))).toBe(true);
    expect((await listBuilds(suite.store.db, projectId, 'production', 10)).map((row) => row.id)).toEqual(['bld_01']);

    const ends = await listBuildsWithLogEnds(suite.store.db, projectId, 10, 100);
    expect(ends.map((row) => [row.id, row.log_end])).toEqual([
      ['bld_02', long.slice(-100)],
      ['bld_01', 'short log\n'],
    ]);
    expect(ends.every((row) => !('log' in row))).toBe(true);
  });

  it('says whether any build waits', async () => {
    const { projectId } = await createForm(suite.store);
    await suite.store.db.updateTable('builds').set({ state: 'canceled' }).where('state', '=', 'queued').execute();
    expect(await hasQueuedBuild(suite.store.db)).toBe(false);
    await suite.store.transaction((trx) => queueBuild(trx, build(projectId, 'bld_03', 'production', '', 'queued')));
    expect(await hasQueuedBuild(suite.store.db)).toBe(true);
  });
});
