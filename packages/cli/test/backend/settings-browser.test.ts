// Runs the real `svc` binary (packages/cli/dist) against a real `svc serve`, in a real Chromium.
import { mkdir, readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, type CliTestServer, createProject, failOnFailPath, launchBrowser, selectBackend, seriousAccessibilityViolations, startCliTestServer, startReceiver, type WebhookReceiver } from '@svc/testkit';

const backend = await selectBackend();
const runs = backend.available && browserAvailable();
/** Set to a directory to keep a screenshot of each main page there (docs/screenshots). */
const screenshotDir = process.env['SVC_SCREENSHOTS_DIR'];

describe.runIf(runs)(`the settings area in Chromium on ${backend.name}`, () => {
  let cli: CliTestServer;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let directory: string;
  let formUrl: string;
  const problems: string[] = [];
  const project = '/settings/studio/shop';

  beforeAll(async () => {
    cli = await startCliTestServer(['--allow-private-targets', '--retry-schedule', '100ms,100ms,100ms,100ms,100ms', '--delivery-poll-interval', '300ms']);
    receiver = await startReceiver(failOnFailPath);
    directory = await createProject(cli, 'studio', 'shop', { forms: [{ slug: 'contact', name: 'Contact' }] });
    formUrl = (await cli.svc(['forms', 'list', '--json'], { cwd: directory })).json<{ forms: { url: string }[] }>().forms[0]!.url;
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    // A script refused by the Content-Security-Policy, or one that throws, is a failure.
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().includes('Failed to load resource')) problems.push(`console: ${message.text()}`);
    });
    page.on('dialog', (dialog) => void dialog.accept());
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await cli?.stop();
  });

  const url = (path: string) => `${cli.url}${path}`;
  const shoot = async (name: string) => {
    if (!screenshotDir) return;
    await mkdir(screenshotDir, { recursive: true });
    await page.screenshot({ path: `${screenshotDir}/${name}.png`, fullPage: true });
  };

  it('signs in with a token through the form', async () => {
    await page.goto(url('/settings'));
    expect(page.url()).toContain('/login');
    await shoot('login');
    await page.getByLabel('Token').fill(cli.adminToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(url('/settings'));
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Projects');
    expect(await page.getByRole('link', { name: 'shop' }).count()).toBe(1);
  });

  it('signs in once with an `svc open` link and its Sign in button, and refuses the same link the second time', async () => {
    const { url: link } = (await cli.svc(['open', '--json'])).json<{ url: string }>();
    // bypassCSP only so that axe-core can be injected.
    const fresh = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    const tab = await fresh.newPage();
    // Opening the link (what a mail scanner does too) only shows who would sign in.
    expect((await tab.goto(link))?.status()).toBe(200);
    expect(await tab.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in to svc');
    expect(await tab.getByRole('main').textContent()).toContain('an admin token');
    expect(await seriousAccessibilityViolations(tab)).toEqual([]);
    if (screenshotDir) await tab.screenshot({ path: `${screenshotDir}/sign-in-link.png`, fullPage: true });
    await tab.reload();
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await tab.waitForURL(url('/settings'));
    expect(await tab.getByRole('heading', { level: 1 }).textContent()).toBe('Projects');
    const other = await (await browser.newContext()).newPage();
    const again = await other.goto(link);
    expect(again?.status()).toBe(401);
    expect(await other.getByRole('heading', { level: 1 }).textContent()).toBe('Sign-in link not valid');
    await other.context().close();
    await fresh.close();
  });

  it("keeps a workspace token's session to its workspace: another workspace's pages answer 404", async () => {
    await createProject(cli, 'rival', 'hidden-site', { forms: [{ slug: 'contact' }] });
    const scoped = (await cli.svc(['tokens', 'create', '--workspace', 'studio', '--json'])).json<{ secret: string }>().secret;
    const scopedContext = await browser.newContext();
    const tab = await scopedContext.newPage();
    await tab.goto(url('/login'));
    await tab.getByLabel('Token').fill(scoped);
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await tab.waitForURL(url('/settings'));
    expect(await tab.locator('main').textContent()).not.toContain('hidden-site');
    const answer = await tab.goto(url('/settings/rival/hidden-site'));
    expect(answer?.status()).toBe(404);
    expect(await tab.getByRole('heading', { level: 1 }).textContent()).toBe('Page not found');
    await scopedContext.close();
  });

  it('adds a webhook in the page, shows its secret once, and the CLI lists it', async () => {
    await page.goto(url(`${project}/webhooks`));
    await page.getByLabel('URL').fill(`${receiver.url}/hook`);
    await page.getByLabel('Events').fill('form.*');
    await page.getByLabel('Description').fill('Order system');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const secret = await page.locator('#signing-secret').textContent();
    expect(secret).toMatch(/^whsec_/);
    const listed = (await cli.svc(['webhooks', 'list', '--json'], { cwd: directory })).json<{ webhooks: { url: string }[] }>();
    expect(listed.webhooks.map((webhook) => webhook.url)).toContain(`${receiver.url}/hook`);
    await page.goto(url(`${project}/webhooks`));
    expect(await page.locator('body').textContent()).not.toContain(secret!);
  });

  it("shows a real submission's delivery in the log, and Resend makes a new attempt that reaches the receiver", async () => {
    await fetch(formUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: 'ada@example.com', message: 'A quote, please' }) });
    const first = await receiver.next();
    expect(first.headers['x-service-event']).toBe('form.submission.created');
    await page.goto(url(`${project}/webhooks`));
    await page.getByRole('link', { name: 'Delivery log' }).first().click();
    // The attempt is recorded just after the receiver answered: reload until it shows.
    const succeeded = page.locator('details.item', { hasText: 'Succeeded' });
    for (let tries = 0; tries < 50 && (await succeeded.count()) === 0; tries += 1) await page.reload();
    await page.locator('details.item summary').first().click();
    await shoot('delivery-log');
    expect(await page.locator('details.item').first().textContent()).toContain('x-service-signature');
    await page.getByRole('button', { name: 'Resend' }).first().click();
    await page.waitForURL(/done=resent/);
    const again = await receiver.next();
    expect(again.headers['x-service-event-id']).toBe(first.headers['x-service-event-id']);
  });

  it('rotates a secret and shows the new one', async () => {
    await page.goto(url(`${project}/webhooks`));
    await shoot('webhooks');
    await page.getByRole('button', { name: 'Rotate secret' }).first().click();
    expect(await page.getByRole('heading', { name: 'New signing secret' }).count()).toBe(1);
    expect(await page.locator('#signing-secret').textContent()).toMatch(/^whsec_/);
  });

  it("shows a submission's fields, as text, and downloads its file", async () => {
    const body = new FormData();
    body.set('email', 'files@example.com');
    body.set('name', '<script>alert("x")</script>');
    body.set('brief', new Blob(['the brief'], { type: 'text/plain' }), 'brief.txt');
    await fetch(formUrl, { method: 'POST', body });
    await page.goto(url(`${project}/forms/contact`));
    await shoot('submissions');
    const newest = page.locator('details.item').first();
    expect(await newest.textContent()).toContain('<script>alert("x")</script>');
    const [download] = await Promise.all([page.waitForEvent('download'), newest.getByRole('link', { name: 'brief.txt' }).click()]);
    expect(download.suggestedFilename()).toBe('brief.txt');
    expect(await readFile(await download.path(), 'utf8')).toBe('the brief');
  });

  it('draws the overview chart and lists tokens', async () => {
    await page.goto(url(project));
    expect(await page.locator('figure.chart svg rect').count()).toBeGreaterThan(0);
    await shoot('overview');
    await page.goto(url('/settings/tokens'));
    await shoot('tokens');
    await page.goto(url('/settings'));
    await shoot('projects');
  });

  it('creates a token from the tokens page for a workspace picked from the list, or with Admin ticked, and never for neither', async () => {
    await page.goto(url('/settings/tokens'));
    const form = page.locator('form[action="/settings/tokens"]');
    expect(await form.getByLabel('Workspace').locator('option').allTextContents()).toEqual(expect.arrayContaining(['Choose a workspace', 'studio', 'rival']));

    await form.getByLabel('Name').fill('Forgotten scope');
    await form.getByRole('button', { name: 'Create token' }).click();
    expect(await page.locator('.notice').first().textContent()).toContain('give the workspace the token is for, or admin for a server-wide token');
    // What was typed is kept.
    expect(await form.getByLabel('Name').inputValue()).toBe('Forgotten scope');

    await form.getByLabel('Workspace').selectOption('studio');
    await form.getByRole('button', { name: 'Create token' }).click();
    expect(await page.getByText('Token created: Forgotten scope').count()).toBe(1);
    expect(await page.locator('#new-token').textContent()).toMatch(/svc_[0-9a-z]+/);
    await shoot('token-created');

    await form.getByLabel('Name').fill('Ops');
    await form.getByLabel('Admin').check();
    await form.getByRole('button', { name: 'Create token' }).click();
    expect(await page.getByText('Token created: Ops').count()).toBe(1);
    const tokens = (await cli.svc(['tokens', 'list', '--json'])).json<{ tokens: { name: string; workspace: string | null }[] }>().tokens;
    expect(tokens.filter((token) => token.name === 'Forgotten scope' || token.name === 'Ops').map((token) => [token.name, token.workspace]).sort()).toEqual([
      ['Forgotten scope', 'studio'],
      ['Ops', null],
    ]);
  });

  it('has no serious or critical accessibility violation on any page', async () => {
    // axe-core is injected as a script, which the pages' CSP rightly refuses: this context bypasses it.
    const axeContext = await browser.newContext({ bypassCSP: true, storageState: await context.storageState() });
    const axePage = await axeContext.newPage();
    const first = await cli.svc(['deliveries', 'list', '--json'], { cwd: directory });
    const webhookId = first.json<{ deliveries: { webhookId: string }[] }>().deliveries[0]!.webhookId;
    for (const path of ['/login', '/settings', project, `${project}/webhooks`, `${project}/webhooks/${webhookId}`, `${project}/forms/contact`, '/settings/tokens']) {
      await axePage.goto(url(path));
      expect(await seriousAccessibilityViolations(axePage), path).toEqual([]);
    }
    await axeContext.close();
  });

  it('works without JavaScript: sign in, add a webhook, see its secret', async () => {
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const plain = await noScript.newPage();
    await plain.goto(url('/login'));
    await plain.getByLabel('Token').fill(cli.adminToken);
    await plain.getByRole('button', { name: 'Sign in' }).click();
    await plain.waitForURL(url('/settings'));
    await plain.goto(url(`${project}/webhooks`));
    await plain.getByLabel('URL').fill('https://hooks.example.com/no-js');
    await plain.getByLabel('Events').fill('*');
    await plain.getByRole('button', { name: 'Add webhook' }).click();
    expect(await plain.locator('#signing-secret').textContent()).toMatch(/^whsec_/);
    await plain.getByRole('link', { name: 'Delete webhook https://hooks.example.com/no-js' }).click();
    await plain.getByRole('button', { name: 'Delete webhook' }).click();
    await plain.waitForURL(/done=deleted/);
    expect(await plain.locator('main').textContent()).not.toContain('https://hooks.example.com/no-js');
    await noScript.close();
  });

  it('ran every page without a script error or a CSP refusal', () => {
    expect(problems).toEqual([]);
  });
});
