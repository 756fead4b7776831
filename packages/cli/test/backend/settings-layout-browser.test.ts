// Every page of the settings area in a real Chromium, on a phone (390 px) and a laptop
// (1280 px), filled with the long values real projects have: nothing may scroll sideways.
import { mkdir } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, type CliTestServer, createProject, deployThroughApi, launchBrowser, selectBackend, seriousAccessibilityViolations, startCliTestServer, startReceiver, type WebhookReceiver } from '@svc/testkit';

const backend = await selectBackend();
const runs = backend.available && browserAvailable();
/** Set to a directory to keep every page's screenshot at both widths there, to look at. */
const screenshotDir = process.env['SVC_LAYOUT_SCREENSHOTS_DIR'];

const workspace = 'northwind-creative-agency-and-digital-production-studio-limited';
const project = 'northwind-traders-international-marketing-website-relaunch-2026';
const longForm = 'enterprise-partnership-enquiry-and-request-for-proposal-form-eu';
const longHost = 'staging-preview-environment.northwind-traders-international-marketing.example.com';
/** A webhook URL of 200 characters, failing: its receiver answers 500 on `/fail…`. */
const webhookPath = `/fail/integrations/crm/northwind-traders/webhooks/inbound/form-submissions?source=svc&workspace=${workspace}&token=`;
const widths = [390, 1280] as const;
/** The page a visitor sent feedback from; its query carries markup, which must stay text. */
const pageUrl = `https://${longHost}/en-gb/solutions/enterprise/partnerships/request-a-proposal?utm_source=newsletter&utm_medium=email&utm_campaign=2026-q4-relaunch&ref="><b>bold</b>`;

/** A PNG of a page, with a box where the visitor's element was. */
function screenshotPng(width: number, height: number, box: { x: number; y: number; width: number; height: number }): Buffer {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const inside = x >= box.x && x < box.x + box.width && y >= box.y && y < box.y + box.height;
      const at = (y * width + x) * 4;
      png.data.set(inside ? [250, 200, 60, 255] : y < 64 ? [40, 60, 120, 255] : [245, 245, 240, 255], at);
    }
  }
  return PNG.sync.write(png);
}

describe.runIf(runs)(`every settings page at 390 and 1280 px with long values on ${backend.name}`, () => {
  let cli: CliTestServer;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let directory: string;
  let base: string;
  let webhookUrl: string;
  let webhookId: string;
  let submissionId: string;
  const pages: { name: string; path: string; open?: string }[] = [];
  const elementBox = { x: 312, y: 188, width: 400, height: 96 };

  beforeAll(async () => {
    cli = await startCliTestServer(['--allow-private-targets', '--retry-schedule', '1h', '--delivery-poll-interval', '200ms']);
    receiver = await startReceiver((request) => (request.path.startsWith('/fail') ? { status: 500, body: 'the CRM is down for maintenance' } : { status: 204 }));
    directory = await createProject(cli, workspace, project, {
      environments: { production: { branch: 'main' }, staging: { branch: 'release/2026-q4-relaunch-with-new-navigation' } },
      domains: { production: ['www.northwind-traders-international-marketing.example.com'], staging: [longHost] },
      forms: [
        { slug: 'contact', name: 'Contact' },
        { slug: longForm, name: 'Enterprise partnership enquiry and request for proposal (Europe, Middle East and Africa)' },
      ],
    });
    base = `/settings/${workspace}/${project}`;
    webhookUrl = `${receiver.url}${webhookPath}`;
    webhookUrl += 'x'.repeat(200 - webhookUrl.length);
    const added = await cli.svc(['webhooks', 'add', '--url', webhookUrl, '--events', 'form.*,request.*,deploy.*', '--description', 'CRM intake (Salesforce) for the enterprise sales team in EMEA', '--json'], { cwd: directory });
    expect(added.code, added.stderr).toBe(0);
    webhookId = added.json<{ webhook: { id: string } }>().webhook.id;
    await cli.svc(['webhooks', 'add', '--url', `${receiver.url}/ok`, '--events', '*'], { cwd: directory });

    const forms = (await cli.svc(['forms', 'list', '--json'], { cwd: directory })).json<{ forms: { slug: string; url: string }[] }>().forms;
    const formUrl = forms.find((form) => form.slug === longForm)!.url;
    const submission = new FormData();
    submission.set('email', 'procurement.department.emea.region@northwind-traders-international.example.com');
    submission.set('company_registration_and_vat_identification_numbers', 'DE-HRB-123456789-VAT-DE987654321-EORI-DE1234567890123');
    submission.set('message', `We would like a proposal. ${'Requirements:'.padEnd(40, '-')} ${'https://docs.northwind-traders.example.com/procurement/rfp/2026/website-relaunch/requirements-v3-final-FINAL.pdf'} and more.`);
    submission.set('brief', new Blob(['the brief'], { type: 'application/pdf' }), 'northwind-traders-website-relaunch-request-for-proposal-2026-v3-final-signed.pdf');
    for (let count = 0; count < 3; count++) expect((await fetch(formUrl, { method: 'POST', body: submission })).status).toBe(200);
    const spam = await fetch(formUrl, { method: 'POST', headers: { 'x-service-honeypot': '1' }, body: submission });
    expect(spam.status).toBe(200);
    const listed = await cli.svc(['submissions', 'list', '--form', longForm, '--json'], { cwd: directory });
    submissionId = listed.json<{ submissions: { id: string }[] }>().submissions[0]!.id;
    // Spam protection on, after the posts: the snippet carries the widget, the settings a long list of origins.
    const origins = 'https://www.northwind-traders-international.example.com,https://staging.northwind-traders-international.example.com';
    expect((await cli.svc(['forms', 'set', longForm, '--captcha', 'altcha', '--max-links', '3', '--origins', origins], { cwd: directory })).code).toBe(0);
    await receiver.waitFor(3, (request) => request.path.startsWith('/fail'));

    const key = /data-key="([^"]+)"/.exec((await cli.svc(['pinpoints', 'snippet'], { cwd: directory })).stdout)![1]!;
    const request = new FormData();
    request.set('comment', `The hero image overlaps the navigation on small screens: ${'see-the-attached-screenshot-'.repeat(6)}thanks`);
    request.set('url', pageUrl);
    request.set('selector', 'body > div.page-wrapper > main#content > section.hero-banner:nth-of-type(2) > div.container > div.row > div.col-lg-6 > h1.display-heading');
    request.set('environment', 'staging');
    request.set('name', 'Maximiliane Oberhuber-Wittelsbach');
    request.set('email', 'maximiliane.oberhuber-wittelsbach@northwind-traders-international.example.com');
    request.set('viewport', '1280x720');
    request.set('elementBox', `${elementBox.x},${elementBox.y},${elementBox.width},${elementBox.height}`);
    request.set('screenshot', new Blob([new Uint8Array(screenshotPng(640, 360, { x: elementBox.x / 2, y: elementBox.y / 2, width: elementBox.width / 2, height: elementBox.height / 2 }))], { type: 'image/png' }), 'screenshot.png');
    const sent = await fetch(`${cli.url}/api/p/${key}/requests`, { method: 'POST', headers: { origin: 'http://localhost:3000' }, body: request });
    expect(sent.status, await sent.clone().text()).toBe(200);
    const requestId = ((await sent.json()) as { id: string }).id;

    const target = { workspace, project, environment: 'production' };
    for (let count = 0; count < 12; count++) {
      const environment = count % 3 === 0 ? 'staging' : 'production';
      await deployThroughApi(cli.url, cli.adminToken, { ...target, environment }, { 'index.html': `<!doctype html><title>v${count}</title>` }, { branch: environment === 'staging' ? 'release/2026-q4-relaunch-with-new-navigation' : 'main', commit: `${count}f3c9a1b2d4e6f8091a2b3c4d5e6f7a8b9c0d1e2`.slice(0, 40) });
    }
    // A second project of the workspace, with nothing in it yet.
    await createProject(cli, workspace, 'landing-page-for-the-spring-campaign-with-a-rather-long-name');
    const ci = (await cli.svc(['tokens', 'create', '--name', 'GitHub Actions deploys for the Northwind Traders website relaunch (production and staging)', '--workspace', workspace, '--json'])).json<{ secret: string }>().secret;
    // A change by that token, so the audit log names someone with a long name.
    await cli.svc(['forms', 'set', longForm, '--success-url', `https://www.northwind-traders-international-marketing.example.com/en-gb/thank-you-for-your-enquiry`], { cwd: directory, token: ci });

    pages.push(
      { name: 'projects', path: '/settings' },
      { name: 'tokens', path: '/settings/tokens' },
      { name: 'audit', path: `/settings/${workspace}/audit` },
      { name: 'overview', path: base },
      { name: 'overview-empty', path: `/settings/${workspace}/landing-page-for-the-spring-campaign-with-a-rather-long-name` },
      { name: 'webhooks', path: `${base}/webhooks` },
      { name: 'delivery-log', path: `${base}/webhooks/${webhookId}`, open: 'details.item' },
      { name: 'delete-webhook', path: `${base}/webhooks/${webhookId}/delete` },
      { name: 'form', path: `${base}/forms/${longForm}` },
      { name: 'form-spam', path: `${base}/forms/${longForm}?state=spam` },
      { name: 'delete-submission', path: `${base}/forms/${longForm}/submissions/${submissionId}/delete` },
      { name: 'requests', path: `${base}/requests` },
      { name: 'delete-request', path: `${base}/requests/${requestId}/delete` },
      { name: 'deploys', path: `${base}/deploys` },
      { name: 'not-found', path: `${base}/no-such-page` },
    );
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await cli?.stop();
  });

  const signedIn = async (width: number, options: { bypassCSP?: boolean } = {}): Promise<{ context: BrowserContext; page: Page }> => {
    const context = await browser.newContext({ viewport: { width, height: 844 }, ...options });
    const page = await context.newPage();
    const { url: link } = (await cli.svc(['open', '--json'])).json<{ url: string }>();
    await page.goto(link);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/settings$/);
    return { context, page };
  };
  const shoot = async (page: Page, name: string, width: number) => {
    if (!screenshotDir) return;
    await mkdir(screenshotDir, { recursive: true });
    await page.screenshot({ path: `${screenshotDir}/${name}-${width}.png`, fullPage: true });
  };
  /** How far the page scrolls sideways, and the elements that stick out of the viewport. */
  const overflow = (page: Page) =>
    page.evaluate(() => {
      const root = document.documentElement;
      const wide = [...document.querySelectorAll('body *')]
        .filter((element) => element.getBoundingClientRect().right > root.clientWidth + 0.5 && getComputedStyle(element).position !== 'absolute')
        .filter((element) => !element.closest('.visually-hidden, .skip-link'))
        .slice(0, 5)
        .map((element) => `${element.tagName.toLowerCase()}.${element.className} (${Math.round(element.getBoundingClientRect().right)} px)`);
      return { scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, wide };
    });

  for (const width of widths) {
    it(`lays out every page at ${width} px without scrolling sideways`, async () => {
      const { context, page } = await signedIn(width);
      try {
        for (const entry of [...pages, { name: 'sign-in-link', path: '' }]) {
          if (entry.name === 'sign-in-link') {
            const tab = await (await browser.newContext({ viewport: { width, height: 844 } })).newPage();
            await tab.goto((await cli.svc(['open', '--json'])).json<{ url: string }>().url);
            const measured = await overflow(tab);
            expect.soft(measured.scrollWidth, `${entry.name} at ${width}: ${measured.wide.join(', ')}`).toBeLessThanOrEqual(measured.clientWidth);
            await shoot(tab, entry.name, width);
            await tab.context().close();
            continue;
          }
          const answer = await page.goto(`${cli.url}${entry.path}`);
          expect(answer?.status(), entry.path).toBe(entry.name === 'not-found' ? 404 : 200);
          if (entry.open) await page.locator(entry.open).first().locator('summary').click();
          const measured = await overflow(page);
          expect.soft(measured.scrollWidth, `${entry.name} at ${width}: ${measured.wide.join(', ')}`).toBeLessThanOrEqual(measured.clientWidth);
          await shoot(page, entry.name, width);
        }
      } finally {
        await context.close();
      }
    });
  }

  for (const width of widths) {
    it(`draws the picked element's box over the screenshot where the element was, at ${width} px`, async () => {
      const { context, page } = await signedIn(width);
      try {
        await page.goto(`${cli.url}${base}/requests`);
        const image = page.locator('img.shot');
        await image.scrollIntoViewIfNeeded();
        await page.waitForFunction(() => document.querySelector<HTMLImageElement>('img.shot')?.complete === true);
        // The page the visitor was on is a link to it, opened without a referrer, its markup as text.
        const link = page.locator('dd a[rel="noopener noreferrer"]');
        expect(await link.getAttribute('href')).toBe(pageUrl);
        expect(await link.textContent()).toBe(pageUrl);
        expect(await page.locator('dd b').count()).toBe(0);
        const picture = (await image.boundingBox())!;
        const drawn = (await page.locator('svg.shot-box rect').boundingBox())!;
        // The box's 3 px line is centred on its edges.
        const outline = { x: drawn.x + 1.5, y: drawn.y + 1.5, width: drawn.width - 3, height: drawn.height - 3 };
        // The screenshot shows the 1280×720 viewport, scaled to fit the page.
        const scale = picture.width / 1280;
        expect(picture.height / picture.width).toBeCloseTo(720 / 1280, 2);
        for (const [measured, expected] of [
          [outline.x - picture.x, elementBox.x * scale],
          [outline.y - picture.y, elementBox.y * scale],
          [outline.width, elementBox.width * scale],
          [outline.height, elementBox.height * scale],
        ] as const) {
          expect(Math.abs(measured - expected)).toBeLessThanOrEqual(1);
        }
      } finally {
        await context.close();
      }
    });
  }

  it('shows times relative to now, with the exact time on hover and for machines', async () => {
    const { context, page } = await signedIn(1280);
    try {
      await page.goto(`${cli.url}/settings`);
      const time = page.locator('main time').first();
      expect(await time.textContent()).toMatch(/^(just now|\d+ min ago)$/);
      expect(await time.getAttribute('title')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);
      expect(new Date((await time.getAttribute('datetime'))!).getTime()).toBeGreaterThan(Date.now() - 3_600_000);
    } finally {
      await context.close();
    }
  });

  // Fifteen pages through axe-core: more than the default 30 s on a busy machine.
  it('has no serious or critical accessibility violation on any of these pages', async () => {
    // bypassCSP only so that axe-core can be injected.
    const { context, page } = await signedIn(390, { bypassCSP: true });
    try {
      for (const entry of pages) {
        await page.goto(`${cli.url}${entry.path}`);
        expect(await seriousAccessibilityViolations(page), entry.path).toEqual([]);
      }
    } finally {
      await context.close();
    }
  }, 120_000);
});
