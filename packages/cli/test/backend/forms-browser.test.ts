// Runs the real `svc` binary (packages/cli/dist) against a real `svc serve`, in a real Chromium.
import { mkdir } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, selectBackend, seriousAccessibilityViolations, startTestSite, type TestSite } from '@svc/testkit';
import { useBrowserProject } from '@svc/testkit/vitest';

const backend = await selectBackend();
const runs = backend.available && browserAvailable();
/** Set to a directory to keep a screenshot of each page there (docs/screenshots). */
const screenshotDir = process.env['SVC_SCREENSHOTS_DIR'];

/** A client's site on another origin: plain HTML forms posting to the form endpoint, no script. */
function sitePages(formUrl: string): Record<string, string> {
  const page = (title: string, form: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${form}</main></body></html>`;
  return {
    '/contact': page(
      'Contact us',
      `<form action="${formUrl}" method="post" enctype="multipart/form-data">
        <label>Name <input name="name"></label>
        <label>Email <input name="email" type="text" required></label>
        <label>Message <textarea name="message"></textarea></label>
        <label>CV <input name="cv" type="file"></label>
        <input type="text" name="x-service-honeypot" tabindex="-1" autocomplete="off" aria-label="Leave this empty" style="position:absolute;left:-9999px">
        <button type="submit">Send</button>
      </form>`,
    ),
    '/plain': page(
      'A plain form',
      `<form action="${formUrl}" method="post">
        <label>Name <input name="name"></label>
        <label>Email <input name="email" type="text"></label>
        <label>Message <textarea name="message"></textarea></label>
        <label>Topics <select name="topic" multiple><option>Prices</option><option>Dates</option></select></label>
        <input type="text" name="x-service-honeypot" tabindex="-1" autocomplete="off" aria-label="Leave this empty" style="position:absolute;left:-9999px">
        <button type="submit">Send</button>
      </form>`,
    ),
    '/text-plain': page(
      'A text/plain form',
      `<form action="${formUrl}" method="post" enctype="text/plain"><label>Name <input name="name"></label><button type="submit">Send</button></form>`,
    ),
    '/thanks': page('Thanks from the site', '<p>We got it.</p>'),
    '/': page('The client\'s site', '<p><a href="/contact">Contact</a></p>'),
  };
}

describe.runIf(runs)(`forms without JavaScript in Chromium on ${backend.name}`, () => {
  let site: TestSite;
  let siteUrl: string;
  let context: BrowserContext;
  let page: Page;

  const suite = useBrowserProject('client', 'site', { config: { forms: [{ slug: 'contact', name: 'Contact' }] } });

  beforeAll(async () => {
    const formUrl = (await suite.cli.svc(['forms', 'list', '--json'], { cwd: suite.directory })).json<{ forms: { url: string }[] }>().forms[0]!.url;
    site = await startTestSite();
    siteUrl = site.url;
    site.serve(sitePages(formUrl));
    context = await suite.browser.newContext({ javaScriptEnabled: false, viewport: { width: 1024, height: 720 } });
    page = await context.newPage();
  });
  afterAll(async () => {
    await site?.close();
  });

  const shoot = async (name: string) => {
    if (!screenshotDir) return;
    await mkdir(screenshotDir, { recursive: true });
    await page.screenshot({ path: `${screenshotDir}/${name}.png`, fullPage: true });
  };
  /** axe-core needs a script: the page as served, checked in a page where scripts run. */
  const accessibilityProblems = async () => {
    const checker = await suite.browser.newPage();
    try {
      await checker.setContent(await page.content());
      return await seriousAccessibilityViolations(checker);
    } finally {
      await checker.close();
    }
  };
  const submissions = async (spam = false) =>
    (await suite.cli.svc(['submissions', 'list', '--form', 'contact', ...(spam ? ['--spam'] : []), '--json'], { cwd: suite.directory })).json<{ submissions: { fields: Record<string, unknown>; files: { name: string }[] }[] }>()
      .submissions;

  it('thanks the visitor on a page with a working link back to the form when the form has no success URL', async () => {
    await page.goto(`${siteUrl}/contact`);
    await page.getByLabel('Name').fill('Ada');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Message').fill('Hello from a page without JavaScript');
    await page.getByLabel('CV').setInputFiles({ name: 'cv.txt', mimeType: 'text/plain', buffer: Buffer.from('my cv') });
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForLoadState();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Thank you');
    expect(await page.getByText('Your message to Contact was sent.').count()).toBe(1);
    expect(await accessibilityProblems()).toEqual([]);
    await shoot('form-thank-you');
    // A cross-origin post's Referer is the site's origin only (the browser's default
    // referrer policy), so that is where the link goes.
    await page.getByRole('link', { name: 'Back to the page you came from' }).click();
    await page.waitForURL(`${siteUrl}/`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe("The client's site");
    const [latest] = await submissions();
    expect(latest).toMatchObject({ fields: { name: 'Ada', email: 'ada@example.com', message: 'Hello from a page without JavaScript' }, files: [{ name: 'cv.txt' }] });
  });

  it('lands on the success URL once the form has one', async () => {
    expect((await suite.cli.svc(['forms', 'set', 'contact', '--success-url', `${siteUrl}/thanks`], { cwd: suite.directory })).code).toBe(0);
    await page.goto(`${siteUrl}/contact`);
    await page.getByLabel('Name').fill('Grace');
    await page.getByLabel('Email').fill('grace@example.com');
    const answer = page.waitForResponse((response) => response.request().method() === 'POST');
    await page.getByRole('button', { name: 'Send' }).click();
    const posted = await answer;
    expect([posted.status(), await posted.headerValue('location')]).toEqual([303, `${siteUrl}/thanks`]);
    await page.waitForURL(`${siteUrl}/thanks`);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Thanks from the site');
    expect((await submissions())[0]!.fields).toEqual({ name: 'Grace', email: 'grace@example.com', message: '' });
  });

  it('says in words which field is wrong, and stores nothing', async () => {
    const before = (await submissions()).length;
    await page.goto(`${siteUrl}/contact`);
    await page.getByLabel('Email').fill('not an address');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForLoadState();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Please check the form');
    expect(await page.getByRole('listitem').textContent()).toBe('email must be a valid email address.');
    expect(await accessibilityProblems()).toEqual([]);
    await shoot('form-error');
    expect(await submissions()).toHaveLength(before);
  });

  it('sends what a bot typed into the honeypot field to Spam, silently', async () => {
    await page.goto(`${siteUrl}/contact`);
    await page.getByLabel('Name').fill('Spam bot');
    await page.getByLabel('Email').fill('bot@spam.example');
    await page.getByLabel('Leave this empty').fill('http://spam.example');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(`${siteUrl}/thanks`);
    expect((await submissions(true))[0]!.fields).toEqual({ name: 'Spam bot', email: 'bot@spam.example', message: '' });
    expect((await submissions())[0]!.fields['name']).not.toBe('Spam bot');
  });

  it('stores a plain <form method="post"> without enctype (urlencoded) like a multipart one, honeypot and all', async () => {
    await page.goto(`${siteUrl}/plain`);
    await page.getByLabel('Name').fill('Katherine');
    await page.getByLabel('Email').fill('katherine@example.com');
    await page.getByLabel('Message').fill('Hello & welcome: 100% of it, line one\nline two');
    await page.getByLabel('Topics').selectOption(['Prices', 'Dates']);
    const answer = page.waitForResponse((response) => response.request().method() === 'POST');
    await page.getByRole('button', { name: 'Send' }).click();
    const posted = await answer;
    expect(await posted.request().headerValue('content-type')).toBe('application/x-www-form-urlencoded');
    await page.waitForURL(`${siteUrl}/thanks`);
    expect((await submissions())[0]!.fields).toEqual({ name: 'Katherine', email: 'katherine@example.com', message: 'Hello & welcome: 100% of it, line one\r\nline two', topic: ['Prices', 'Dates'] });

    await page.goto(`${siteUrl}/plain`);
    await page.getByLabel('Name').fill('Plain bot');
    await page.getByLabel('Email').fill('bot@spam.example');
    await page.getByLabel('Leave this empty').fill('http://spam.example');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(`${siteUrl}/thanks`);
    expect((await submissions(true))[0]!.fields).toEqual({ name: 'Plain bot', email: 'bot@spam.example', message: '' });
  });

  it('after an error, the page says the Back button keeps what was typed, and it does', async () => {
    await page.goto(`${siteUrl}/plain`);
    await page.getByLabel('Name').fill('Ada');
    await page.getByLabel('Email').fill('not an address');
    await page.getByLabel('Message').fill('A long message I would hate to type again');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForLoadState();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Please check the form');
    expect(await page.locator('main').textContent()).toContain("Your browser's Back button takes you to the form with what you typed still filled in.");
    await page.goBack();
    await page.waitForURL(`${siteUrl}/plain`);
    expect(await page.getByLabel('Message').inputValue()).toBe('A long message I would hate to type again');
    expect(await page.getByLabel('Email').inputValue()).toBe('not an address');
  });

  it('explains a form sent as enctype="text/plain", which the endpoint does not take', async () => {
    await page.goto(`${siteUrl}/text-plain`);
    await page.getByLabel('Name').fill('Linus');
    const answer = page.waitForResponse((response) => response.request().method() === 'POST');
    await page.getByRole('button', { name: 'Send' }).click();
    expect((await answer).status()).toBe(415);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This form cannot be sent as it is');
    expect(await page.locator('main').textContent()).toContain('enctype="multipart/form-data"');
    await shoot('form-unsupported');
  });
});
