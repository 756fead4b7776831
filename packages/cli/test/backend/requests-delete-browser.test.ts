// The requests page's Delete action and its retention setting in a real Chromium, at 390 and
// 1280 px (docs/settings.md, docs/privacy.md). Build first.
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, selectBackend } from '@svc/testkit';
import { useBrowserProject } from '@svc/testkit/vitest';

const backend = await selectBackend();
const runs = backend.available && browserAvailable();
/** Set to a directory to keep the screenshots, to look at. */
const screenshotDir = process.env['SVC_LAYOUT_SCREENSHOTS_DIR'];
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const workspace = 'northwind-creative-agency-and-digital-production-studio-limited';
const project = 'northwind-traders-international-marketing-website-relaunch-2026';

describe.runIf(runs)(`deleting a request on the requests page on ${backend.name}`, () => {
  let key: string;
  const base = `/settings/${workspace}/${project}`;

  const suite = useBrowserProject(workspace, project);

  beforeAll(async () => {
    key = /data-key="([^"]+)"/.exec((await suite.cli.svc(['pinpoints', 'snippet'], { cwd: suite.directory })).stdout)![1]!;
  });

  const send = async (comment: string): Promise<string> => {
    const form = new FormData();
    form.set('comment', comment);
    form.set('url', `http://localhost:3000/en-gb/solutions/enterprise/partnerships/request-a-proposal?utm_campaign=2026-q4-relaunch-${'x'.repeat(60)}`);
    form.set('environment', 'development');
    form.set('email', 'maximiliane.oberhuber-wittelsbach@northwind-traders-international.example.com');
    form.set('screenshot', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'screenshot.png');
    const sent = await fetch(`${suite.cli.url}/api/p/${key}/requests`, { method: 'POST', headers: { origin: 'http://localhost:3000' }, body: form });
    expect(sent.status).toBe(200);
    return ((await sent.json()) as { id: string }).id;
  };
  const signedIn = async (width: number): Promise<Page> => {
    const context = await suite.browser.newContext({ viewport: { width, height: 844 } });
    const page = await context.newPage();
    await page.goto((await suite.cli.svc(['open', '--json'])).json<{ url: string }>().url);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/settings$/);
    return page;
  };
  const shoot = async (page: Page, name: string) => {
    if (!screenshotDir) return;
    await mkdir(screenshotDir, { recursive: true });
    await page.screenshot({ path: `${screenshotDir}/${name}.png`, fullPage: true });
  };
  const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

  for (const width of [390, 1280] as const) {
    it(`asks first, then deletes the request with its screenshot, at ${width} px`, async () => {
      const comment = `The hero image overlaps the navigation on small screens (${width}): ${'see-the-attached-screenshot-'.repeat(5)}thanks`;
      const id = await send(comment);
      const page = await signedIn(width);
      try {
        await page.goto(`${suite.cli.url}${base}/requests`);
        const item = page.locator(`details[id="${id}"]`);
        if ((await item.getAttribute('open')) === null) await item.locator('summary').click();
        expect(await scrollsSideways(page)).toBe(false);
        await shoot(page, `requests-with-delete-${width}`);
        await item.getByRole('link', { name: `Delete request ${id}` }).click();
        await page.waitForURL(new RegExp(`/requests/${id}/delete$`));
        expect(await page.locator('h1').textContent()).toBe('Delete this request?');
        expect(await scrollsSideways(page)).toBe(false);
        await shoot(page, `delete-request-${width}`);

        // Cancel leaves it where it was.
        await page.getByRole('link', { name: 'Cancel' }).click();
        await page.waitForURL(new RegExp(`${base}/requests$`));
        expect(await page.locator(`details[id="${id}"]`).count()).toBe(1);

        await page.goto(`${suite.cli.url}${base}/requests/${id}/delete`);
        await page.getByRole('button', { name: 'Delete request' }).click();
        await page.waitForURL(/\/requests\?done=deleted$/);
        expect(await page.locator('[role=status], .notice').first().textContent()).toContain('Request deleted');
        expect(await page.locator(`details[id="${id}"]`).count()).toBe(0);
        expect(await scrollsSideways(page)).toBe(false);
        await shoot(page, `request-deleted-${width}`);
        const shown = await suite.cli.svc(['requests', 'show', id, '--json'], { cwd: suite.directory });
        expect(shown.code).toBe(1);
      } finally {
        await page.context().close();
      }
    });
  }

  it('sets how long requests are kept, and says what is wrong with a bad value', async () => {
    const page = await signedIn(390);
    try {
      await page.goto(`${suite.cli.url}${base}/requests`);
      await page.getByLabel('Retention').fill('2 weeks');
      await page.getByRole('button', { name: 'Save settings' }).click();
      expect(await page.locator('section[aria-labelledby=request-settings-title] .notice').first().textContent()).toMatch(/Retention/);
      expect(await page.getByLabel('Retention').inputValue()).toBe('2 weeks');
      await page.getByLabel('Retention').fill('180d');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.waitForURL(/done=settings/);
      expect(await page.getByLabel('Retention').inputValue()).toBe('180d');
      expect(await scrollsSideways(page)).toBe(false);
      await shoot(page, 'request-settings-390');
      expect((await suite.cli.svc(['requests', 'set', '--json'], { cwd: suite.directory })).json()).toMatchObject({ settings: { retentionSeconds: 180 * 86_400 } });
    } finally {
      await page.context().close();
    }
  });
});
