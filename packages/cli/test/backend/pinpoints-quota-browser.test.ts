// The Pinpoints widget in a real Chromium when the project's stored uploads reached their
// quota (docs/hosting.md, "Upload quota"): the visitor's words still arrive, without the picture.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, type CliTestServer, createProject, launchBrowser, selectBackend, startCliTestServer, startTestSite, type TestSite } from '@svc/testkit';

const backend = await selectBackend();
const runs = backend.available && browserAvailable();

interface Listed {
  comment: string;
  screenshot: { size: number } | null;
  screenshotError: string | null;
}

describe.runIf(runs)(`the Pinpoints widget past the upload quota on ${backend.name}`, () => {
  let cli: CliTestServer;
  let site: TestSite;
  let browser: Browser;
  let page: Page;
  let directory: string;

  beforeAll(async () => {
    // One byte: the first screenshot crosses the quota, every later one is refused.
    cli = await startCliTestServer(['--upload-quota', '1']);
    directory = await createProject(cli, 'quota', 'site');
    const snippet = (await cli.svc(['pinpoints', 'snippet'], { cwd: directory })).stdout.trim().replace(' async>', ' data-environment="staging" async>');
    site = await startTestSite();
    site.serve({ '/': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body><main><h1>Shop</h1></main>${snippet}</body></html>` });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1024, height: 720 } });
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await cli?.stop();
  });

  const send = async (comment: string, thanks: string) => {
    await page.goto(site.url);
    await page.getByRole('button', { name: 'Feedback' }).click();
    await page.getByLabel('Comment').fill(comment);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText(thanks).waitFor();
  };

  it('sends the request again without its screenshot when the project keeps no more, and tells the visitor', async () => {
    await send('First, with a picture', 'Thanks! Your feedback was sent.');
    await send('Second, past the quota', 'Thanks! Your feedback was sent, without a screenshot (the site keeps no more screenshots just now).');
    const listed = (await cli.svc(['requests', 'list', '--json'], { cwd: directory })).json<{ requests: Listed[] }>().requests;
    expect(listed.map((request) => [request.comment, request.screenshot === null, request.screenshotError])).toEqual([
      ['Second, past the quota', true, 'the site keeps no more screenshots just now'],
      ['First, with a picture', false, null],
    ]);
  });
});
