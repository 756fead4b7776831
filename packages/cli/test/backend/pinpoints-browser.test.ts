// The Pinpoints widget in a real Chromium, on a client's site served from another origin,
// against a real `svc serve`, with the inbox driven through the real `svc` binary.
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  browserAvailable,
  type CliTestServer,
  createProject,
  launchBrowser,
  selectBackend,
  seriousAccessibilityViolations,
  startCliTestServer,
  startTestSite,
  type TestSite,
  startReceiver,
  type WebhookReceiver,
} from '@svc/testkit';
import { verify } from '@svc/webhooks';

const backend = await selectBackend();
const runs = backend.available && browserAvailable();
/** Set to a directory to keep the pictures of docs/pinpoints.md there (docs/screenshots). */
const screenshotDir = process.env['SVC_SCREENSHOTS_DIR'];

/** Boxes of the test page, in CSS pixels of the viewport, each filled with one distinctive colour. */
const boxes = {
  accountNumber: { x: 40, y: 200, width: 220, height: 60, colour: [255, 0, 0] },
  password: { x: 40, y: 300, width: 220, height: 40, colour: [0, 200, 0] },
  marked: { x: 40, y: 380, width: 220, height: 60, colour: [0, 0, 255] },
  card: { x: 320, y: 300, width: 220, height: 40, colour: [255, 0, 255] },
  plain: { x: 320, y: 200, width: 220, height: 60, colour: [255, 165, 0] },
} as const;
const redactionColour = [0x1f, 0x29, 0x37];

const box = (name: keyof typeof boxes) => {
  const { x, y, width, height, colour } = boxes[name];
  return `position:absolute;left:${x}px;top:${y}px;width:${width}px;height:${height}px;box-sizing:border-box;margin:0;border:0;padding:0 8px;background:rgb(${colour.join(',')});color:${name === 'marked' ? '#fff' : '#000'};font:16px sans-serif`;
};

function sitePages(snippet: string): Record<string, string> {
  const page = (title: string, tag: string, body: string, style = '') =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><style>body{margin:0;font-family:sans-serif}${style}</style></head><body><main><h1 style="margin:16px 40px">${title}</h1>${body}</main>${tag}</body></html>`;
  const staging = snippet.replace(' async>', ' data-environment="staging" async>');
  const account = `
    <section class="plans"><h2 style="margin:8px 40px;font-size:20px">Plans</h2><p style="margin:0 40px">The Pro plan costs 12 € a month.</p></section>
    <div class="account-number" style="${box('accountNumber')}">IBAN DE89 3704 0044</div>
    <label for="password" style="position:absolute;left:40px;top:275px;font-size:14px">Password</label><input id="password" type="password" value="hunter2hunter2" style="${box('password')}">
    <div data-pinpoints-redact style="${box('marked')}">Ada Lovelace, 12 Main St</div>
    <label for="card" style="position:absolute;left:320px;top:275px;font-size:14px">Card</label><input id="card" autocomplete="cc-number" value="4111 1111 1111 1111" style="${box('card')}">
    <div class="public" style="${box('plain')}">Public text</div>`;
  return {
    '/staging': page('Pricing (staging)', staging, account),
    '/production': page('Pricing', snippet.replace(' async>', ' data-environment="production" async>'), account),
    '/oklch': page('Modern colours', staging, '<p class="modern">Colours in oklch()</p>', 'body{background:oklch(0.97 0.02 250)} .modern{margin:40px;padding:20px;color:oklch(0.4 0.15 30);background:color-mix(in oklch, oklch(0.8 0.1 150), white 30%)}'),
  };
}

describe.runIf(runs)(`the Pinpoints widget in Chromium on ${backend.name}`, () => {
  let cli: CliTestServer;
  let receiver: WebhookReceiver;
  let secret: string;
  let site: TestSite;
  let siteUrl: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let directory: string;

  beforeAll(async () => {
    cli = await startCliTestServer(['--allow-private-targets']);
    receiver = await startReceiver();
    directory = await createProject(cli, 'client', 'site', { pinpoints: { redact: ['.account-number'] } });
    const added = await cli.svc(['webhooks', 'add', '--url', `${receiver.url}/hook`, '--events', 'request.*', '--json'], { cwd: directory });
    secret = added.json<{ secret: string }>().secret;
    const snippet = (await cli.svc(['pinpoints', 'snippet'], { cwd: directory })).stdout.trim();
    site = await startTestSite();
    siteUrl = site.url;
    site.serve(sitePages(snippet));
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1024, height: 720 }, deviceScaleFactor: 1 });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await receiver?.close();
    await cli?.stop();
  });

  const shoot = async (name: string) => {
    if (!screenshotDir) return;
    await mkdir(screenshotDir, { recursive: true });
    await page.screenshot({ path: `${screenshotDir}/${name}.png` });
  };
  const listRequests = async () => (await cli.svc(['requests', 'list', '--status', 'all', '--json'], { cwd: directory })).json<{ requests: RequestListed[] }>().requests;
  const feedbackButton = () => page.getByRole('button', { name: 'Feedback' });
  const sendFeedback = async (comment: string) => {
    await page.getByLabel('Comment').fill(comment);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Thanks! Your feedback was sent').waitFor();
  };

  it('does not show on a page whose tag says production (off by default)', async () => {
    const settings = page.waitForResponse((response) => response.url().includes('/settings?'));
    await page.goto(`${siteUrl}/production`);
    expect((await settings).status()).toBe(200);
    expect(await (await settings).json()).toEqual({ ok: true, enabled: false, redact: [] });
    await page.waitForLoadState('networkidle');
    expect(await page.locator('[data-pinpoints-widget]').count()).toBe(0);
  });

  it('lets a visitor on staging point at an element and send; the request is in the inbox and its webhook is signed', async () => {
    await page.goto(`${siteUrl}/staging`);
    await feedbackButton().click();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Point at an element' }).click();
    await page.getByText('Click the element you mean').waitFor();
    await page.locator('section.plans > h2').hover();
    await page.locator('section.plans > h2').click();
    await page.getByText('Element: body > main > section > h2').waitFor();
    await page.getByLabel('Name').fill('Grace');
    await page.getByLabel('Email').fill('grace@example.com');
    await page.getByLabel('Comment').fill('The heading should say Pricing');
    await shoot('pinpoints-widget');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Thanks! Your feedback was sent.').waitFor();

    const [listed] = await listRequests();
    expect(listed).toMatchObject({ status: 'open', environment: 'staging', comment: 'The heading should say Pricing', url: `${siteUrl}/staging`, selector: 'body > main > section > h2', name: 'Grace', email: 'grace@example.com', viewport: '1024x720' });
    expect(listed!.screenshot).toMatchObject({ contentType: 'image/png' });
    // The element the selector names is the one that was picked, and its box is where it was on the screenshot.
    expect(await page.locator(listed!.selector!).textContent()).toBe('Plans');
    const heading = await page.locator('section.plans > h2').evaluate((element) => {
      const rect = element.getBoundingClientRect();
      return { x: Math.round(rect.left), y: Math.round(rect.top), width: Math.round(rect.width), height: Math.round(rect.height) };
    });
    expect(listed!.elementBox).toEqual(heading);

    const [delivery] = await receiver.waitFor(1, (request) => request.headers['x-service-event'] === 'request.created');
    expect(() => verify(delivery!.body, delivery!.headers['x-service-signature'] as string, secret)).not.toThrow();
    expect(JSON.parse(delivery!.body.toString('utf8'))).toMatchObject({ type: 'request.created', data: { request: { id: listed!.id, selector: 'body > main > section > h2', elementBox: heading, screenshot: { sha256: listed!.screenshot!.sha256 } } } });
  });

  it('paints over every redacted element in the stored PNG, and leaves the rest of the page as it was', async () => {
    const [listed] = await listRequests();
    const file = join(directory, 'shot.png');
    expect((await cli.svc(['requests', 'screenshot', listed!.id, '--output', file], { cwd: directory })).code).toBe(0);
    const image = PNG.sync.read(await readFile(file));
    expect([image.width, image.height]).toEqual([1024, 720]);
    const pixel = (x: number, y: number) => {
      const at = (y * image.width + x) * 4;
      return [image.data[at], image.data[at + 1], image.data[at + 2]];
    };
    const colours = (name: keyof typeof boxes) => {
      const { x, y, width, height } = boxes[name];
      const seen = new Set<string>();
      for (let row = y + 1; row < y + height - 1; row++) for (let column = x + 1; column < x + width - 1; column++) seen.add(pixel(column, row).join(','));
      return [...seen];
    };
    for (const name of ['accountNumber', 'password', 'marked', 'card'] as const) expect(colours(name), name).toEqual([redactionColour.join(',')]);
    // Next to them, an element nobody asked to hide keeps its colour (its text aside).
    expect(pixel(boxes.plain.x + 2, boxes.plain.y + boxes.plain.height - 3)).toEqual([...boxes.plain.colour]);
    expect(colours('plain')).toContain(boxes.plain.colour.join(','));
    if (screenshotDir) await copyFile(file, `${screenshotDir}/pinpoints-redacted-capture.png`);
  });

  it('still takes the screenshot on a page whose styles use oklch() colours', async () => {
    await page.goto(`${siteUrl}/oklch`);
    await feedbackButton().click();
    await sendFeedback('Colours look off');
    const [latest] = await listRequests();
    expect(latest).toMatchObject({ comment: 'Colours look off', screenshotError: null, screenshot: { contentType: 'image/png' } });
    const image = PNG.sync.read(await readFile(await saveScreenshot(latest!.id)));
    // The page's oklch() background made it into the picture (a light blue-grey, not white or black).
    const [red, green, blue] = [...image.data.subarray(((700 * image.width) + 10) * 4, ((700 * image.width) + 10) * 4 + 3)];
    expect(blue!).toBeGreaterThan(red!);
    expect(red!).toBeGreaterThan(200);
    expect(green!).toBeLessThan(255);
  });

  it('shows the reporter the reply and the status; reply, resolve and reopen each send their event once', async () => {
    const [first] = (await listRequests()).filter((request) => request.comment === 'The heading should say Pricing');
    const id = first!.id;
    expect((await cli.svc(['requests', 'reply', id, '--message', 'Renamed it, thanks!'], { cwd: directory })).code).toBe(0);
    expect((await cli.svc(['requests', 'resolve', id], { cwd: directory })).code).toBe(0);
    await page.goto(`${siteUrl}/staging`);
    await feedbackButton().click();
    await page.getByText('Your earlier feedback').waitFor();
    await page.getByText('Renamed it, thanks!').waitFor();
    expect(await page.locator('[data-pinpoints-widget]').evaluate((host) => host.shadowRoot!.textContent)).toContain('Resolved');
    await page.getByText('Renamed it, thanks!').scrollIntoViewIfNeeded();
    await shoot('pinpoints-thread');
    expect((await cli.svc(['requests', 'reopen', id], { cwd: directory })).code).toBe(0);
    expect((await cli.svc(['requests', 'reopen', id], { cwd: directory })).stdout).toContain('already open');

    const types = ['request.replied', 'request.resolved', 'request.reopened'];
    const deliveries = await receiver.waitFor(3, (request) => types.includes(request.headers['x-service-event'] as string));
    const forRequest = receiver.requests
      .filter((request) => types.includes(request.headers['x-service-event'] as string))
      .map((request) => JSON.parse(request.body.toString('utf8')) as { id: string; type: string; data: unknown });
    expect(forRequest.map((event) => event.type).sort()).toEqual([...types].sort());
    expect(new Set(forRequest.map((event) => event.id)).size).toBe(types.length);
    for (const delivery of deliveries) expect(() => verify(delivery.body, delivery.headers['x-service-signature'] as string, secret)).not.toThrow();
    expect(forRequest.find((event) => event.type === 'request.replied')!.data).toMatchObject({ request: { id }, reply: { message: 'Renamed it, thanks!', author: expect.any(String) } });
  });

  it('shows the inbox in the settings area: the screenshot, the thread, and a reply that reaches the widget', async () => {
    // bypassCSP only so that axe-core can be injected; the page's own CSP is checked by the settings tests.
    const staff = await context.browser()!.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    try {
      const tab = await staff.newPage();
      const { url: link } = (await cli.svc(['open', '--json'])).json<{ url: string }>();
      await tab.goto(link);
      await tab.getByRole('button', { name: 'Sign in' }).click();
      await tab.waitForURL(/\/settings$/);
      await tab.goto(`${cli.url}/settings/client/site`);
      await tab.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Requests' }).click();
      expect(await tab.getByRole('heading', { level: 1 }).textContent()).toBe('Requests');
      const item = tab.locator('details.item').filter({ hasText: 'Colours look off' });
      // The newest request opens by itself.
      expect(await item.evaluate((element: HTMLDetailsElement) => element.open)).toBe(true);
      const image = item.getByRole('img', { name: /Screenshot of/ });
      expect(await image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth)).toBe(1024);
      await item.getByLabel('Reply').fill('Which colour exactly?');
      await item.getByRole('button', { name: 'Send reply' }).click();
      await tab.getByText('Reply sent.').waitFor();
      // The request with a picked element shows the element's box over its screenshot.
      const pricing = tab.locator('details.item').filter({ hasText: 'The heading should say Pricing' });
      await pricing.locator('summary').click();
      expect(await pricing.locator('svg.shot-box rect').count()).toBe(1);
      expect(await seriousAccessibilityViolations(tab)).toEqual([]);
      if (screenshotDir) await tab.screenshot({ path: `${screenshotDir}/settings-requests.png`, fullPage: true });
      await tab.locator('details.item').filter({ hasText: 'Colours look off' }).getByRole('button', { name: 'Resolve' }).click();
      await tab.getByText('Request resolved').waitFor();
      const [colours] = (await listRequests()).filter((request) => request.comment === 'Colours look off');
      expect(colours).toMatchObject({ status: 'resolved', replies: [{ message: 'Which colour exactly?' }] });
    } finally {
      await staff.close();
    }
    await page.goto(`${siteUrl}/oklch`);
    await feedbackButton().click();
    await page.getByText('Which colour exactly?').waitFor();
  });

  const saveScreenshot = async (id: string) => {
    const file = join(directory, `${id}.png`);
    expect((await cli.svc(['requests', 'screenshot', id, '--output', file, '--force'], { cwd: directory })).code).toBe(0);
    return file;
  };
});

interface RequestListed {
  id: string;
  status: string;
  replies: { message: string }[];
  comment: string;
  selector: string | null;
  elementBox: { x: number; y: number; width: number; height: number } | null;
  screenshot: { sha256: string; contentType: string } | null;
}
