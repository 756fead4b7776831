// A hosted site in a real Chromium: the Pinpoints widget on staging and not on production,
// and the deploys page of the settings area (its screenshots: deploys-browser.test.ts).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, selectBackend, seriousAccessibilityViolations } from '@svc/testkit';
import { useBrowserProject } from '@svc/testkit/vitest';

const backend = await selectBackend();
const runs = backend.available && browserAvailable();

describe.runIf(runs)(`a hosted site in Chromium on ${backend.name}`, () => {
  // *.localhost names reach this machine in a browser without any DNS.
  const suite = useBrowserProject('hosted', 'site', {
    config: {
      environments: { production: { branch: 'main' }, staging: { branch: 'dev' } },
      domains: { production: ['www-site.localhost'], staging: ['staging-site.localhost'] },
    },
  });
  let port: string;

  beforeAll(async () => {
    port = new URL(suite.cli.url).port;
    await writeFile(join(suite.directory, 'index.html'), '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Client site</title></head><body><main><h1>Client site</h1><p>Welcome.</p></main></body></html>');
    for (const environment of ['staging', 'production']) {
      const deployed = await suite.cli.svc(['deploy', '--environment', environment, '--json'], { cwd: suite.directory });
      expect(deployed.code, deployed.stderr).toBe(0);
    }
  });

  it('shows the Pinpoints widget on the staging site and not on production', async () => {
    const page = await suite.browser.newPage();
    try {
      await page.goto(`http://staging-site.localhost:${port}/`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Client site');
      await page.getByRole('button', { name: 'Feedback' }).waitFor();

      const settings = page.waitForResponse((response) => response.url().includes('/settings?'), { timeout: 5_000 }).catch(() => null);
      await page.goto(`http://www-site.localhost:${port}/`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Client site');
      await page.waitForLoadState('networkidle');
      // Production has the widget off: its pages do not even load the script.
      expect(await settings).toBeNull();
      expect(await page.locator('script[src$="/pinpoints.js"]').count()).toBe(0);
      expect(await page.locator('[data-pinpoints-widget]').count()).toBe(0);
    } finally {
      await page.close();
    }
  });

  it('shows the deploys page with what each environment serves, and rolls back from it', async () => {
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    try {
      const page = await context.newPage();
      const { url: link } = (await suite.cli.svc(['open', '--json'])).json<{ url: string }>();
      await page.goto(link);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/settings$/);
      await page.goto(`${suite.cli.url}/settings/hosted/site`);
      await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Deploys' }).click();
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Deploys');
      expect(await page.getByRole('heading', { name: 'production', exact: true }).count()).toBe(1);
      expect(await page.getByText('live on production', { exact: true }).count()).toBe(1);
      expect(await seriousAccessibilityViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Make live on production' }).first().click();
      await page.getByText('the environment serves that deploy now').waitFor();
      const listed = (await suite.cli.svc(['deploys', 'list', '--json'], { cwd: suite.directory })).json<{ live: Record<string, string | null>; deploys: { id: string; environment: string }[] }>();
      const stagingDeploy = listed.deploys.find((deploy) => deploy.environment === 'staging')!.id;
      expect(listed.live['production']).toBe(stagingDeploy);
    } finally {
      await context.close();
    }
  });
});
