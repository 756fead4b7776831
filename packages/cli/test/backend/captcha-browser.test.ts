// Runs the real `svc` binary (packages/cli/dist) against a real `svc serve`, in a real Chromium.
import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formSnippet } from '@svc/server/testing';
import { browserAvailable, type CliTestServer, createProject, launchBrowser, requestAsHost, selectBackend, startCliTestServer, startTestSite, type TestSite } from '@svc/testkit';

const backend = await selectBackend();
const runs = backend.available && browserAvailable();
/** Set to a directory to keep a screenshot of each page there (docs/screenshots). */
const screenshotDir = process.env['SVC_SCREENSHOTS_DIR'];

interface FormInfo {
  slug: string;
  url: string;
  captcha: string;
}

describe.runIf(runs)(`an ALTCHA form in Chromium on ${backend.name}`, () => {
  let cli: CliTestServer;
  let site: TestSite;
  let browser: Browser;
  let directory: string;
  let contact: FormInfo;
  const serviceRequests: string[] = [];

  beforeAll(async () => {
    // An easy challenge: the browser's work is not what is tested, and no test waits on speed.
    cli = await startCliTestServer(['--altcha-max-number', '2000']);
    directory = await createProject(cli, 'captcha', 'site', { forms: [{ slug: 'contact', name: 'Contact' }] });
    const set = await cli.svc(['forms', 'set', 'contact', '--captcha', 'altcha', '--json'], { cwd: directory });
    expect(set.code).toBe(0);
    contact = set.json<{ form: FormInfo }>().form;
    expect(contact.captcha).toBe('altcha');
    site = await startTestSite();
    const page = (title: string, body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
    site.serve({ '/contact': page('Contact us', formSnippet(contact.url, 'altcha')) });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await cli?.stop();
  });

  const shoot = async (page: Page, name: string) => {
    if (!screenshotDir) return;
    await mkdir(screenshotDir, { recursive: true });
    await page.screenshot({ path: `${screenshotDir}/${name}.png`, fullPage: true });
  };
  const submissions = async () =>
    (await cli.svc(['submissions', 'list', '--form', 'contact', '--json'], { cwd: directory })).json<{ submissions: { fields: Record<string, unknown> }[] }>().submissions;

  it('solves the widget from the form snippet, posts, and shows the thank-you page, with no third-party request', async () => {
    const context = await browser.newContext({ viewport: { width: 1024, height: 720 } });
    const page = await context.newPage();
    page.on('request', (request) => serviceRequests.push(request.url()));
    await page.goto(`${site.url}/contact`);
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Message').fill('Sent with a solved ALTCHA');
    await page.getByRole('checkbox').click();
    await page.waitForFunction(() => (document.querySelector<HTMLInputElement>('input[name="altcha"]')?.value ?? '') !== '');
    await shoot(page, 'altcha-solved');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForLoadState();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Thank you');
    const [latest] = await submissions();
    expect(latest!.fields).toEqual({ email: 'ada@example.com', message: 'Sent with a solved ALTCHA' });
    const origins = new Set(serviceRequests.map((url) => new URL(url).origin));
    expect([...origins].sort()).toEqual([new URL(cli.url).origin, site.url].sort());
    await context.close();
  });

  it('solves on a plain-http page, which has no Web Crypto, and the snippet\'s honeypot stays out of people\'s way', async () => {
    // A name other than localhost over http: not a secure context, as a staging host without TLS is not.
    const insecure = await launchBrowser({ hostsToHere: ['staging.test'] });
    try {
      const page = await insecure.newPage({ viewport: { width: 390, height: 800 } });
      await page.goto(`http://www.staging.test:${new URL(site.url).port}/contact`);
      expect(await page.evaluate(() => [window.isSecureContext, typeof crypto.subtle])).toEqual([false, 'undefined']);
      // The honeypot is in the form but not in what a person or a screen reader is offered.
      expect(await page.locator('input[name="x-service-honeypot"]').count()).toBe(1);
      expect(await page.getByRole('textbox').count()).toBe(2);
      await page.getByLabel('Email').fill('lin@example.com');
      await page.getByLabel('Message').fill('Sent from a plain-http staging page');
      await page.getByRole('checkbox').click();
      await page.waitForFunction(() => (document.querySelector<HTMLInputElement>('input[name="altcha"]')?.value ?? '') !== '');
      await shoot(page, 'altcha-plain-http');
      await page.getByRole('button', { name: 'Send' }).click();
      await page.waitForLoadState();
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Thank you');
      const [latest] = await submissions();
      expect(latest!.fields).toEqual({ email: 'lin@example.com', message: 'Sent from a plain-http staging page' });
    } finally {
      await insecure.close();
    }
  });

  it('gives a page without JavaScript the page that says the captcha was not solved, and stores nothing', async () => {
    const before = (await submissions()).length;
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${site.url}/contact`);
    await page.getByLabel('Email').fill('grace@example.com');
    const answer = page.waitForResponse((response) => response.request().method() === 'POST');
    await page.getByRole('button', { name: 'Send' }).click();
    expect((await answer).status()).toBe(422);
    await page.waitForLoadState();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('The captcha was not solved');
    expect(await page.getByText('A page without JavaScript cannot solve an ALTCHA or Turnstile challenge', { exact: false }).count()).toBe(1);
    await shoot(page, 'altcha-without-javascript');
    expect((await submissions()).length).toBe(before);
    await context.close();
  });
});

describe.runIf(backend.available)(`svc forms set's spam protection on ${backend.name}`, () => {
  let cli: CliTestServer;
  let directory: string;
  beforeAll(async () => {
    cli = await startCliTestServer();
    directory = await createProject(cli, 'captcha-cli', 'site', { forms: [{ slug: 'contact' }] });
  });
  afterAll(async () => {
    await cli?.stop();
  });

  it('sets a provider with its secret from the environment, never printing it, and shows every setting', async () => {
    const missing = await cli.svc(['forms', 'set', 'contact', '--captcha', 'turnstile', '--json'], { cwd: directory });
    expect([missing.code, missing.json()]).toEqual([1, expect.objectContaining({ ok: false, error: expect.objectContaining({ code: 'validation_failed' }) })]);
    const unset = await cli.svc(['forms', 'set', 'contact', '--captcha-secret-env', 'NOT_SET_ANYWHERE'], { cwd: directory });
    expect([unset.code, unset.stderr]).toEqual([2, expect.stringContaining('NOT_SET_ANYWHERE is not set')]);
    const set = await cli.svc(['forms', 'set', 'contact', '--captcha', 'turnstile', '--captcha-secret-env', 'TURNSTILE_SECRET', '--max-links', '2', '--origins', 'project'], {
      cwd: directory,
      env: { TURNSTILE_SECRET: '0x4AAAAAAAtopsecret' },
    });
    expect(set.code).toBe(0);
    expect(set.stdout).toContain('  captcha:       turnstile (secret stored)\n');
    expect(set.stdout).toContain('  max links:     2, more go to Spam\n');
    expect(set.stdout).toContain("  origins:       the project's domains and local development hosts\n");
    expect(set.stdout + set.stderr).not.toContain('topsecret');
    const listed = await cli.svc(['forms', 'list', '--json'], { cwd: directory });
    expect(listed.stdout).not.toContain('topsecret');
    expect(listed.json<{ forms: unknown[] }>().forms[0]).toMatchObject({ captcha: 'turnstile', captchaSecretSet: true, maxLinks: 2, origins: 'project' });
    const bad = await cli.svc(['forms', 'set', 'contact', '--origins', 'https://a.example/path', '--json'], { cwd: directory });
    expect(bad.json()).toMatchObject({ ok: false, error: { code: 'validation_failed', details: { errors: { origins: expect.any(String) } } } });
    const off = await cli.svc(['forms', 'set', 'contact', '--captcha', 'none', '--max-links', 'none', '--origins', 'any', '--json'], { cwd: directory });
    expect(off.json()).toMatchObject({ ok: true, form: { captcha: 'none', maxLinks: null, origins: 'any' } });
  });

  it('serves the ALTCHA widget on a hosted site\'s own hostname, as the form endpoint and the Pinpoints widget are', async () => {
    const hosted = await createProject(cli, 'captcha-hosted', 'site', { domains: { production: ['forms.client.example'] } });
    expect(hosted).toBeTruthy();
    const widget = await requestAsHost(cli.url, 'forms.client.example', '/altcha.js');
    expect(widget.status).toBe(200);
    expect(widget.headers['content-type']).toBe('text/javascript; charset=utf-8');
    // Anything else there is the site's: nothing is deployed yet.
    expect((await requestAsHost(cli.url, 'forms.client.example', '/other.js')).status).toBe(404);
  });

  it('shows why a submission is in Spam', async () => {
    await cli.svc(['forms', 'set', 'contact', '--max-links', '0'], { cwd: directory });
    const url = (await cli.svc(['forms', 'list', '--json'], { cwd: directory })).json<{ forms: { url: string }[] }>().forms[0]!.url;
    const posted = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ message: 'buy at https://spam.example' }) });
    const { id } = (await posted.json()) as { id: string };
    const shown = await cli.svc(['submissions', 'show', id], { cwd: directory });
    expect(shown.stdout).toContain(`${id} in contact (spam: links)`);
    const listed = await cli.svc(['submissions', 'list', '--form', 'contact', '--spam', '--json'], { cwd: directory });
    expect(listed.json<{ submissions: unknown[] }>().submissions[0]).toMatchObject({ id, spamReason: 'links' });
    const exported = await cli.svc(['submissions', 'export', '--form', 'contact', '--spam', '--format', 'csv'], { cwd: directory });
    expect(exported.stdout.split('\r\n')[0]).toBe('submission_id,submitted_at,spam_reason,message');
    expect(exported.stdout).toContain(',links,');
  });
});
