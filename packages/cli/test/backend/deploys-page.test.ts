// The deploys page of the settings area over plain HTTP (docs/settings.md, docs/hosting.md):
// Roll back only where there is something to go back to, and an action that fails answers
// with the project's deploys page and its error, never a bare error page.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTestServer, createProject, PageSession, selectBackend, startCliTestServer } from '@svc/testkit';

const backend = await selectBackend();

describe.runIf(backend.available)(`the deploys page's actions on ${backend.name}`, () => {
  let cli: CliTestServer;
  let session: PageSession;
  let csrf: string;
  const path = '/settings/page-actions/site/deploys';
  const ids: string[] = [];

  beforeAll(async () => {
    cli = await startCliTestServer();
    const directory = await createProject(cli, 'page-actions', 'site', { environments: { production: { branch: 'main' }, staging: { branch: 'dev' } } });
    for (const title of ['One', 'Two']) {
      await writeFile(join(directory, 'index.html'), `<h1>${title}</h1>`);
      const deployed = await cli.svc(['deploy', '--environment', 'production', '--json'], { cwd: directory });
      expect(deployed.code, deployed.stderr).toBe(0);
      ids.push(deployed.json<{ deploy: { id: string } }>().deploy.id);
    }
    session = new PageSession(cli.url);
    expect((await session.signIn(cli.adminToken)).status).toBe(303);
    csrf = await session.csrf(path);
  });
  afterAll(async () => {
    await cli?.stop();
  });

  /** The page is the project's deploys page: its heading, the project's navigation, the error said in it. */
  const expectDeploysPageWith = (text: string, error: string) => {
    expect(text).toContain('<h1>Deploys</h1>');
    expect(text).toContain(`<a href="${path}" aria-current="page">Deploys</a>`);
    expect(text).toContain(`<div class="notice bad" role="alert">${error}</div>`);
  };

  it('offers Roll back only on an environment whose live deploy has an earlier one', async () => {
    const page = await session.get(path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Roll back production</button>');
    expect(page.text).toContain(`Roll back serves <span class="mono deploy-id">${ids[0]}</span> again.`);
    expect(page.text).not.toContain('Roll back staging');
  });

  it.each([
    ['a rollback where nothing is live', 'rollback', { environment: 'staging' }, 409, 'Not rolled back: nothing is live on staging, so there is nothing to roll back.'],
    ['a rollback of an environment that does not exist', 'rollback', { environment: 'prod' }, 422, 'Not rolled back: no environment &quot;prod&quot;.'],
    ['a promote of a deploy that does not exist', 'dpl-0000000000000000000000000x/promote', { to: 'staging' }, 404, 'Not made live: no deploy &quot;dpl-0000000000000000000000000x&quot; in project &quot;site&quot;.'],
    ['a promote to an environment the project does not declare', 'ID/promote', { to: 'development' }, 422, 'Not made live: the project has no development environment.'],
  ])('answers %s with the deploys page and the error', async (_what, action, fields, status, error) => {
    const answer = await session.post(`${path}/${action.replace('ID', ids[0]!)}`, { _csrf: csrf, ...fields });
    expect(answer.status).toBe(status);
    expectDeploysPageWith(answer.text, error);
  });

  it('rolls back from the page, after which there is nothing earlier to roll back to', async () => {
    const answer = await session.post(`${path}/rollback`, { _csrf: csrf, environment: 'production' });
    expect([answer.status, answer.headers.get('location')]).toEqual([303, `${path}?done=rolled-back`]);
    const page = await session.get(answer.headers.get('location')!);
    expect(page.text).toContain('Rolled back: the environment serves the deploy before');
    expect(page.text).not.toContain('Roll back production</button>');
    expect(page.text).toContain('No earlier deploy to roll back to.');
    const again = await session.post(`${path}/rollback`, { _csrf: csrf, environment: 'production' });
    expect(again.status).toBe(409);
    expectDeploysPageWith(again.text, `Not rolled back: production has no finished deploy before ${ids[0]} to roll back to.`);
  });
});
