// The deploys page of the settings area in a real Chromium, with values as long as real
// projects have them: Roll back only where there is something to go back to, a failed
// action shown inside the project's page, and a layout that fits 1280 and 390 px.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, type CliTestServer, createProject, createTestGitRepo, eventually, launchBrowser, pushWebhook, request, selectBackend, seriousAccessibilityViolations, startCliTestServer, type TestGitRepo } from '@svc/testkit';

const backend = await selectBackend();
const runs = backend.available && browserAvailable();
const screenshotDir = process.env['SVC_SCREENSHOTS_DIR'];

const workspace = 'northwind-creative-agency';
const project = 'client-website-relaunch-2025';
const environments = {
  production: { branch: 'main' },
  staging: { branch: 'release/spring-campaign-2025-landing-pages' },
  development: { branch: 'feature/new-checkout-flow-with-apple-pay-and-google-pay' },
};
const domains = {
  production: ['www.northwind-traders-international-holdings.localhost', 'northwind-traders-international-holdings.localhost'],
  staging: ['staging.northwind-traders-international-holdings.localhost'],
};

async function writeTree(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

/** Checks out `branch` at `commit` as far as `svc deploy` reads it (.git/HEAD and the ref). */
async function checkOut(directory: string, branch: string, commit: string): Promise<void> {
  await writeTree(directory, { '.git/HEAD': `ref: refs/heads/${branch}\n`, [`.git/refs/heads/${branch}`]: `${commit}\n` });
}

describe.runIf(runs)(`the deploys page in Chromium on ${backend.name}`, () => {
  let cli: CliTestServer;
  let browser: Browser;
  let desktop: BrowserContext;
  let directory: string;
  const deployIds: Record<string, string[]> = { production: [], staging: [] };
  const problems: string[] = [];
  const deploysPath = `/settings/${workspace}/${encodeURIComponent(project)}/deploys`;

  const deploy = async (environment: 'production' | 'staging', branch: string, commit: string, title: string) => {
    await checkOut(directory, branch, commit);
    await writeTree(directory, { 'index.html': `<!doctype html><title>${title}</title><h1>${title}</h1>` });
    const token = environment === 'production' ? ciToken : undefined;
    const result = await cli.svc(['deploy', '--environment', environment, '--json'], { cwd: directory, ...(token ? { token } : {}) });
    expect(result.code, result.stderr).toBe(0);
    deployIds[environment]!.push(result.json<{ deploy: { id: string } }>().deploy.id);
  };
  let ciToken: string;
  let repo: TestGitRepo;

  const openPage = async (context: BrowserContext): Promise<Page> => {
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${cli.url}${deploysPath}`);
    return page;
  };
  const shoot = async (page: Page, name: string) => {
    if (!screenshotDir) return;
    await mkdir(screenshotDir, { recursive: true });
    await page.screenshot({ path: join(screenshotDir, `${name}.png`), fullPage: true });
  };

  beforeAll(async () => {
    cli = await startCliTestServer(['--allow-local-repos']);
    directory = await createProject(cli, workspace, project, { environments, domains });
    repo = await createTestGitRepo();
    ciToken = (await cli.svc(['tokens', 'create', '--name', 'github-actions-production-deploy-pipeline', '--workspace', workspace, '--json'])).json<{ secret: string }>().secret;
    await deploy('production', 'main', '3f9a1c2b7d4e5f60718293a4b5c6d7e8f9a0b1c2', 'Relaunch, first cut');
    await deploy('production', 'main', '9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c', 'Relaunch, with the new hero');
    await deploy('staging', environments.staging.branch, 'c0ffee1234567890abcdef1234567890abcdef12', 'Spring campaign preview');
    // Two builds from git that fail (so what is live stays as above): a push and a deploy hook.
    const connected = (await cli.svc(['git', 'connect', '--repo', repo.path, '--json'], { cwd: directory })).json<{ git: { pushUrl: string; pushSecret: string } }>().git;
    const commit = await repo.commit('main', { 'README.md': 'A relaunch without its index page yet' });
    const { headers, body } = pushWebhook('github', connected.pushSecret, { ref: 'refs/heads/main', after: commit });
    const pushed = await request(connected.pushUrl, { method: 'POST', headers, body });
    // Two pushes that build nothing: a branch no environment has, and a forged signature.
    const feature = await repo.commit('feature/a-rather-long-branch-name-for-the-spring-campaign-redesign', { 'index.html': '<h1>feature</h1>' });
    const ignored = pushWebhook('gitea', connected.pushSecret, { ref: 'refs/heads/feature/a-rather-long-branch-name-for-the-spring-campaign-redesign', after: feature });
    expect((await request(connected.pushUrl, { method: 'POST', headers: ignored.headers, body: ignored.body })).status).toBe(202);
    const forged = pushWebhook('github', 'not-the-secret', { ref: 'refs/heads/main', after: commit });
    expect((await request(connected.pushUrl, { method: 'POST', headers: forged.headers, body: forged.body })).status).toBe(401);
    const hook = (await cli.svc(['hooks', 'create', '--environment', 'production', '--name', 'headless-cms-publish-webhook-for-the-marketing-team', '--json'], { cwd: directory })).json<{ hook: { url: string } }>().hook;
    await eventually(async () => (await cli.svc(['builds', 'show', (pushed.body as { build: { id: string } }).build.id, '--json'], { cwd: directory })).json<{ build: { status: string } }>().build.status, (status) => status === 'failed', 'the push build to fail', 60_000);
    const called = await request(hook.url, { method: 'POST' });
    await eventually(async () => (await cli.svc(['builds', 'show', (called.body as { build: { id: string } }).build.id, '--json'], { cwd: directory })).json<{ build: { status: string } }>().build.status, (status) => status === 'failed', 'the hook build to fail', 60_000);
    browser = await launchBrowser();
    desktop = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    const signIn = await desktop.newPage();
    const { url: link } = (await cli.svc(['open', '--json'])).json<{ url: string }>();
    await signIn.goto(link);
    await signIn.getByRole('button', { name: 'Sign in' }).click();
    await signIn.waitForURL(/\/settings$/);
    await signIn.close();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await cli?.stop();
    await repo?.remove();
  });

  it('offers Roll back only for an environment with an earlier finished deploy to go back to', async () => {
    const page = await openPage(desktop);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Deploys');
    const production = page.getByRole('region', { name: 'production' });
    await production.getByRole('button', { name: 'Roll back production' }).waitFor();
    expect(await production.textContent()).toContain(`Roll back serves ${deployIds['production']![0]} again`);
    const staging = page.getByRole('region', { name: 'staging' });
    expect(await staging.getByRole('button').count()).toBe(0);
    expect(await staging.textContent()).toContain('No earlier deploy to roll back to');
    expect(await page.getByRole('region', { name: 'development' }).textContent()).toContain('Nothing live');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.close();
  });

  it('lists the builds from git with their state, commit, trigger and the end of their log', async () => {
    const page = await openPage(desktop);
    const builds = page.getByRole('region', { name: 'Builds from git' });
    await builds.waitFor();
    const rows = builds.getByRole('row').filter({ hasText: 'bld_' });
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toContain('hook: headless-cms-publish-webhook-for-the-marketing-team');
    expect(await rows.nth(1).textContent()).toContain('git push');
    expect(await rows.nth(1).textContent()).toMatch(/main@[0-9a-f]{7}/);
    expect(await rows.nth(1).textContent()).toContain('failed');
    expect(await rows.nth(1).textContent()).toContain('index.html');
    await rows.nth(1).getByText('Last lines').click();
    expect(await rows.nth(1).locator('pre').textContent()).toContain('index.html');
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.close();
  });

  it('lists the pushes that built nothing, each with its verdict and why', async () => {
    const page = await openPage(desktop);
    const section = page.getByRole('region', { name: 'Pushes that built nothing' });
    await section.waitFor();
    const rows = section.getByRole('row').filter({ hasText: 'inb_' });
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toContain('refused');
    expect(await rows.nth(0).textContent()).toContain('push from github');
    expect(await rows.nth(0).textContent()).toContain('invalid signature');
    expect(await rows.nth(1).textContent()).toContain('ignored');
    expect(await rows.nth(1).textContent()).toContain('refs/heads/feature/a-rather-long-branch-name-for-the-spring-campaign-redesign@');
    expect(await rows.nth(1).textContent()).toContain("is no environment's branch");
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.close();
  });

  it.each([
    ['desktop', 1280, 900],
    ['phone', 390, 844],
  ])('fits a %s (%i px) with long ids, hostnames and branches: no sideways scrolling, no id broken across lines', async (name, width, height) => {
    const context = await browser.newContext({ viewport: { width, height }, storageState: await desktop.storageState() });
    try {
      const page = await openPage(context);
      await page.getByRole('heading', { level: 1, name: 'Deploys' }).waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      const wrappedIds = await page.getByText(/^dpl-[0-9a-z]+$/).evaluateAll((ids) => ids.filter((id) => id.getClientRects().length > 1).map((id) => id.textContent));
      expect(wrappedIds.length + (await page.getByText(/^dpl-[0-9a-z]+$/).count())).toBeGreaterThanOrEqual(5);
      expect(wrappedIds).toEqual([]);
      await shoot(page, name === 'desktop' ? 'deploys' : 'deploys-phone');
    } finally {
      await context.close();
    }
  });

  it("shows a rollback that fails inside the project's deploys page, with the way back, and rolls back when there is something to go back to", async () => {
    const page = await openPage(desktop);
    const production = page.getByRole('region', { name: 'production' });
    await production.getByRole('button', { name: 'Roll back production' }).waitFor();
    // Meanwhile someone rolls production back from a terminal: this page's button is stale.
    const elsewhere = await cli.svc(['deploys', 'rollback', '--environment', 'production', '--json'], { cwd: directory });
    expect(elsewhere.code, elsewhere.stderr).toBe(0);

    const [answer] = await Promise.all([page.waitForResponse((response) => response.url().endsWith('/deploys/rollback')), production.getByRole('button', { name: 'Roll back production' }).click()]);
    expect(answer.status()).toBe(409);
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe(`Not rolled back: production has no finished deploy before ${deployIds['production']![0]} to roll back to.`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Deploys');
    expect(await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Deploys' }).getAttribute('href')).toBe(deploysPath);
    // The page shows the state as it is now: production serves the first deploy, with nothing before it.
    expect(await page.getByRole('region', { name: 'production' }).getByRole('button').count()).toBe(0);
    await shoot(page, 'deploys-error');

    await page.getByRole('row').filter({ hasText: deployIds['production']![1]! }).getByRole('button', { name: 'Make live on production' }).click();
    await page.getByText('the environment serves that deploy now').waitFor();
    await page.getByRole('button', { name: 'Roll back production' }).click();
    await page.getByText('Rolled back').waitFor();
    expect(problems).toEqual([]);
    await page.close();
  });
});
