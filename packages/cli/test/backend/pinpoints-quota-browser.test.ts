// The Pinpoints widget in a real Chromium when the project's stored uploads reached their
// quota (docs/hosting.md, "Upload quota"): the visitor's words still arrive, without the picture.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, selectBackend, startTestSite, type TestSite } from '@svc/testkit';
import { useBrowserProject } from '@svc/testkit/vitest';

const backend = await selectBackend();
const runs = backend.available && browserAvailable();

interface Listed {
  comment: string;
  screenshot: { size: number } | null;
  screenshotError: string | null;
}

describe.runIf(runs)(`the Pinpoints widget past the upload quota on ${backend.name}`, () => {
  let site: TestSite;
  let page: Page;

  // One byte: the first screenshot crosses the quota, every later one is refused.
  const suite = useBrowserProject('quota', 'site', { serverArgs: ['--upload-quota', '1'] });

  beforeAll(async () => {
    const snippet = (await suite.cli.svc(['pinpoints', 'snippet'], { cwd: suite.directory })).stdout.trim().replace(' async>', ' data-environment="staging" async>');
    site = await startTestSite();
    site.serve({ '/': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shop</title></head><body><main><h1>Shop</h1></main>${snippet}</body></html>` });
    page = await suite.browser.newPage({ viewport: { width: 1024, height: 720 } });
  });
  afterAll(async () => {
    await site?.close();
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
    const listed = (await suite.cli.svc(['requests', 'list', '--json'], { cwd: suite.directory })).json<{ requests: Listed[] }>().requests;
    expect(listed.map((request) => [request.comment, request.screenshot === null, request.screenshotError])).toEqual([
      ['Second, past the quota', true, 'the site keeps no more screenshots just now'],
      ['First, with a picture', false, null],
    ]);
  });
});
