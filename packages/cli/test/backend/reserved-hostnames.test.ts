// The hostnames no project may claim in `domains` (docs/hosting.md, "Domains and DNS"): the
// service's own address and what it gives out under --preview-domain, through `svc push`.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject, selectBackend, serviceJson, startCliTestServer, uniqueName, type CliTestServer } from '@svc/testkit';

const backend = await selectBackend();

describe.runIf(backend.available)(`hostnames the service keeps back, on ${backend.name}`, () => {
  const servers: CliTestServer[] = [];
  afterAll(async () => {
    for (const server of servers) await server.stop();
  });

  const pushDomains = async (cli: CliTestServer, directory: string, workspace: string, domains: Record<string, string[]>) => {
    await writeFile(join(directory, 'service.json'), serviceJson(workspace, 'site', { environments: { production: { branch: 'main' }, staging: { branch: 'next' } }, domains }));
    return cli.svc(['push', '--json'], { cwd: directory });
  };

  describe('with a preview domain of its own', () => {
    let cli: CliTestServer;
    let workspace: string;
    let directory: string;
    beforeAll(async () => {
      cli = await startCliTestServer(['--preview-domain', 'preview.agency.test', '--base-url', 'https://svc.agency.test']);
      servers.push(cli);
      workspace = uniqueName('reserved');
      directory = await createProject(cli, workspace, 'site');
    }, 120_000);

    it('refuses the service\'s own host and every name under the preview domain, saying which and why', async () => {
      const pushed = await pushDomains(cli, directory, workspace, { production: ['www.client.example', 'svc.agency.test'], staging: ['preview.agency.test', 'staging.preview.agency.test'] });
      expect(pushed.code).toBe(1);
      const failure = pushed.json<{ ok: false; error: { code: string; message: string; details: { errors: Record<string, string> } } }>();
      expect(failure.error.code).toBe('validation_failed');
      expect(failure.error.details.errors).toEqual({
        '/domains/production/1': 'svc.agency.test is the service\'s own address',
        '/domains/staging/0': 'preview.agency.test is the preview domain',
        '/domains/staging/1': 'staging.preview.agency.test is under the preview domain preview.agency.test, whose addresses the service gives out',
      });
      // Nothing of the refused push was applied.
      const listed = await cli.svc(['pull', '--json'], { cwd: directory });
      expect(JSON.stringify(listed.json())).not.toContain('www.client.example');
    });

    it('takes a client\'s own hostnames', async () => {
      const pushed = await pushDomains(cli, directory, workspace, { production: ['www.client.example'], staging: ['staging.client.example'] });
      expect(pushed.code, pushed.stderr).toBe(0);
    });
  });

  describe('with the default preview domain, localhost', () => {
    it('keeps back only names shaped like previews and branch addresses; other *.localhost names stay local domains', async () => {
      const cli = await startCliTestServer();
      servers.push(cli);
      const workspace = uniqueName('localnames');
      const directory = await createProject(cli, workspace, 'site');
      const refused = await pushDomains(cli, directory, workspace, { production: ['dpl-06h2qqqqqqqqqqqqqqqqqqqqqq.localhost'], staging: ['feature--site--acme.localhost'] });
      expect(refused.code).toBe(1);
      expect(Object.keys(refused.json<{ error: { details: { errors: Record<string, string> } } }>().error.details.errors)).toEqual(['/domains/production/0', '/domains/staging/0']);
      const taken = await pushDomains(cli, directory, workspace, { production: ['www-site.localhost'], staging: ['staging-site.localhost'] });
      expect(taken.code, taken.stderr).toBe(0);
    });
  });
});
