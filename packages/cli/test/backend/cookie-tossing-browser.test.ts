// Cookie tossing, in a real Chromium (a regression of the third adversarial test): a
// tenant's deploy preview, on a sibling of the service's host, sets a session cookie for
// their shared parent domain with a longer path. The browser then sends two session
// cookies to the settings area, the tenant's first; the server used to take it, and the
// admin saw the tenant's workspace as their own. Now a request with two session cookies is
// signed out (docs/settings.md), and docs/hosting.md keeps previews off the parent domain.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, type CliTestServer, createProject, launchBrowser, PageSession, selectBackend, startCliTestServer } from '@svc/testkit';

const backend = await selectBackend();
const runs = backend.available && browserAvailable();

describe.runIf(runs)(`a deploy preview tossing a session cookie, in Chromium on ${backend.name}`, () => {
  let cli: CliTestServer;
  let browser: Browser;
  let service: string;
  let preview: string;

  beforeAll(async () => {
    // The browser resolves agency.test and every name under it to this machine: the service
    // answers on svc.agency.test and previews on *.preview.agency.test, the layout
    // docs/hosting.md warns against (both under the registrable domain agency.test).
    cli = await startCliTestServer(['--preview-domain', 'preview.agency.test']);
    const port = new URL(cli.url).port;
    service = `http://svc.agency.test:${port}`;
    await createProject(cli, 'agency', 'site');
    await createProject(cli, 'tenant', 'site');
    const tenantToken = (await cli.svc(['tokens', 'create', '--name', 'tenant', '--workspace', 'tenant', '--json'], {})).json<{ secret: string }>().secret;
    const tenantSession = new PageSession(cli.url);
    expect((await tenantSession.signIn(tenantToken)).status).toBe(303);
    const directory = await createProject(cli, 'tenant', 'shop', {}, tenantToken);
    const planted = `${tenantSession.sessionCookie!}; domain=agency.test; path=/settings; max-age=31536000`;
    await writeFile(join(directory, 'index.html'), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Preview</title><script>document.cookie = ${JSON.stringify(planted)};</script></head><body><main><h1>Preview</h1></main></body></html>`);
    const deployed = await cli.svc(['deploy', '--environment', 'production', '--json'], { cwd: directory, token: tenantToken });
    expect(deployed.code, deployed.stderr).toBe(0);
    preview = `http://${deployed.json<{ deploy: { id: string } }>().deploy.id}.preview.agency.test:${port}/`;
    browser = await launchBrowser({ hostsToHere: ['agency.test'] });
  });
  afterAll(async () => {
    await browser?.close();
    await cli?.stop();
  });

  it('signs the admin out instead of showing them the tenant workspace, without a redirect loop', async () => {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${service}/login`);
      await page.getByLabel('Token').fill(cli.adminToken);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${service}/settings`);
      // The admin's own view: every workspace, each with its project.
      expect(await page.getByRole('heading', { name: 'agency', exact: true }).count()).toBe(1);

      await page.goto(preview);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Preview');
      // The browser really holds both now: the admin's own, and the one the preview set.
      const sessions = (await context.cookies(`${service}/settings`)).filter((cookie) => cookie.name === 'svc_session');
      expect(sessions.map((cookie) => cookie.domain).sort()).toEqual(['.agency.test', 'svc.agency.test']);

      const answer = await page.goto(`${service}/settings`);
      expect(answer?.status()).toBe(200);
      expect(new URL(page.url()).pathname).toBe('/login');
      expect(await page.getByRole('alert').textContent()).toContain('more than one session cookie');
      expect(await page.content()).not.toContain('tenant');
      expect((await page.goto(`${service}/settings/tenant/shop`))?.status()).toBe(200);
      expect(new URL(page.url()).pathname).toBe('/login');
      // Signing in again leads back to the same advice, not into a loop.
      await page.getByLabel('Token').fill(cli.adminToken);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').waitFor();
      expect(new URL(page.url()).pathname).toBe('/login');
      expect(await page.getByRole('alert').textContent()).toContain('delete the cookies of this site and of its parent domain');
    } finally {
      await context.close();
    }
  });
});
