// An invited person in a real Chromium: opens their invite, sets their name, answers a
// client's request; the client's widget shows the reply under that name. Against a real
// `svc serve`, driven through the real `svc` binary.
import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserAvailable, selectBackend, seriousAccessibilityViolations, startTestSite, type TestSite } from '@svc/testkit';
import { useBrowserProject } from '@svc/testkit/vitest';

const backend = await selectBackend();
const runs = backend.available && browserAvailable();
/** Set to a directory to keep the pictures of docs/members.md there. */
const screenshotDir = process.env['SVC_SCREENSHOTS_DIR'];

const sitePage = (snippet: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pricing</title></head><body><main><h1>Pricing</h1><p>The Pro plan costs 12 € a month.</p></main>${snippet.replace(' async>', ' data-environment="staging" async>')}</body></html>`;

describe.runIf(runs)(`an invited person answers a client in Chromium on ${backend.name}`, { timeout: 120_000 }, () => {
  let site: TestSite;

  const suite = useBrowserProject('client', 'site');

  beforeAll(async () => {
    const snippet = (await suite.cli.svc(['pinpoints', 'snippet'], { cwd: suite.directory })).stdout.trim();
    site = await startTestSite();
    site.serve({ '/pricing': sitePage(snippet) });
  });
  afterAll(async () => {
    await site?.close();
  });

  /** No element wider than the viewport: nothing scrolls sideways on a phone. */
  const fits = async (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
  const shoot = async (page: Page, name: string) => {
    if (!screenshotDir) return;
    await mkdir(screenshotDir, { recursive: true });
    await page.screenshot({ path: `${screenshotDir}/${name}.png`, fullPage: true });
  };

  it('the invited person signs in, sets their name and replies; the widget shows "<name> replied"', async () => {
    // The client reports something through the widget on their site.
    const client = await suite.browser.newContext({ viewport: { width: 1024, height: 720 } });
    const reporter = await client.newPage();
    await reporter.goto(`${site.url}/pricing`);
    await reporter.getByRole('button', { name: 'Feedback' }).click();
    await reporter.getByLabel('Comment').fill('The price should include VAT');
    await reporter.getByRole('button', { name: 'Send', exact: true }).click();
    await reporter.getByText('Thanks! Your feedback was sent').waitFor();

    await suite.cli.svc(['members', 'invite', 'bartholomew.featherstonehaugh-longname@agency-with-a-long-domain.example', '--name', 'Bartholomew Featherstonehaugh', '--workspace', 'client']);
    const invited = (await suite.cli.svc(['members', 'invite', 'sam@agency.example', '--role', 'owner', '--workspace', 'client', '--json'])).json<{ inviteUrl: string }>();
    // bypassCSP only so that axe-core can be injected; the pages' own CSP is checked by the settings tests.
    const staff = await suite.browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    const tab = await staff.newPage();
    await tab.goto(invited.inviteUrl);
    expect(await tab.getByRole('heading', { level: 1 }).textContent()).toBe('Sign in to svc');
    await tab.getByText('joining the workspace').waitFor();
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await tab.waitForURL(/\/settings$/);

    await tab.getByRole('link', { name: 'Account' }).click();
    await tab.getByRole('textbox', { name: 'Name' }).fill('Sam');
    await tab.getByRole('button', { name: 'Save' }).click();
    await tab.getByText('Name saved.').waitFor();
    expect(await seriousAccessibilityViolations(tab)).toEqual([]);
    await shoot(tab, 'members-account-1280');

    await tab.goto(`${suite.cli.url}/settings/client/members`);
    expect(await tab.getByRole('heading', { level: 1 }).textContent()).toBe('Members of client');
    await tab.getByRole('button', { name: 'Invite', exact: true }).waitFor();
    expect(await seriousAccessibilityViolations(tab)).toEqual([]);
    await shoot(tab, 'members-page-1280');

    await tab.goto(`${suite.cli.url}/settings/client/site/requests`);
    const item = tab.locator('details.item').filter({ hasText: 'The price should include VAT' });
    await item.getByLabel('Reply').fill('Done: prices now include VAT.');
    await item.getByRole('button', { name: 'Send reply' }).click();
    await tab.getByText('Reply sent.').waitFor();

    const requests = (await suite.cli.svc(['requests', 'list', '--json'], { cwd: suite.directory })).json<{ requests: { replies: { author: string; message: string }[] }[] }>().requests;
    expect(requests[0]!.replies).toEqual([expect.objectContaining({ author: 'Sam', message: 'Done: prices now include VAT.' })]);

    await reporter.goto(`${site.url}/pricing`);
    await reporter.getByRole('button', { name: 'Feedback' }).click();
    await reporter.getByText('Done: prices now include VAT.').waitFor();
    await reporter.getByText('Sam replied').waitFor();

    // The same pages on a phone.
    await tab.setViewportSize({ width: 390, height: 844 });
    for (const [path, name] of [['/settings/client/members', 'members-page-390'], ['/settings/account', 'members-account-390']] as const) {
      await tab.goto(`${suite.cli.url}${path}`);
      expect(await fits(tab), path).toBe(true);
      await shoot(tab, name);
    }
    await staff.close();
    await client.close();
  });

  it('the pages of a person fit a phone and a laptop with long values: their invite, a limited account, the audit log, a refused link', async () => {
    const cli = suite.cli;
    const email = 'maximilian.alexander.featherstonehaugh@a-very-long-agency-domain-name-for-testing.example';
    const other = 'second-agency-with-a-rather-long-workspace-name-for-layouts';
    const config = { workspace: other, project: 'site', framework: 'static', environments: { production: { branch: 'main' } } };
    const created = await fetch(`${cli.url}/api/cli/projects`, { method: 'POST', headers: { authorization: `Bearer ${cli.adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ config }) });
    expect(created.status).toBe(200);
    const invited = await suite.cli.svc(['members', 'invite', email, '--name', 'Maximilian Alexander Featherstonehaugh-Worthington III', '--role', 'owner', '--workspace', 'client', '--json']);
    const { inviteUrl } = invited.json<{ inviteUrl: string }>();
    // The link shown to the inviter says it opens this workspace only; opening it spends nothing.
    for (const width of [1280, 390]) {
      const context = await suite.browser.newContext({ viewport: { width, height: 844 } });
      const tab = await context.newPage();
      await tab.goto(inviteUrl);
      await tab.getByText('signs you in to client only').waitFor();
      expect(await fits(tab), `invite at ${width}`).toBe(true);
      await shoot(tab, `members-invite-limited-${width}`);
      await context.close();
    }
    const signIn = await suite.browser.newContext();
    const tab = await signIn.newPage();
    await tab.goto(inviteUrl);
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await tab.waitForURL(/\/settings$/);
    const storageState = await signIn.storageState();
    await signIn.close();
    // A role change, so that the audit log names a member by a long email, with the old and new role.
    const bart = (await suite.cli.svc(['members', 'list', '--workspace', 'client', '--json'])).json<{ members: { id: string; email: string }[] }>().members.find((member) => member.email.startsWith('bartholomew'))!;
    expect((await suite.cli.svc(['members', 'set', bart.id, '--role', 'owner'])).code).toBe(0);
    for (const width of [1280, 390]) {
      // bypassCSP only so that axe-core can be injected.
      const context = await suite.browser.newContext({ viewport: { width, height: 844 }, bypassCSP: true, storageState });
      const page = await context.newPage();
      for (const [name, path] of [['members-account-limited', '/settings/account'], ['members-audit', '/settings/client/audit']] as const) {
        expect((await page.goto(`${cli.url}${path}`))?.status(), path).toBe(200);
        await shoot(page, `${name}-${width}`);
        expect(await fits(page), `${name} at ${width}`).toBe(true);
        expect(await seriousAccessibilityViolations(page), `${name} at ${width}`).toEqual([]);
      }
      await context.close();
    }
    // Another workspace's link for him, now that he belongs to client: it signs nobody in, and says why.
    const refused = (await suite.cli.svc(['members', 'invite', email, '--workspace', other, '--json'])).json<{ inviteUrl: string }>().inviteUrl;
    for (const width of [1280, 390]) {
      const context = await suite.browser.newContext({ viewport: { width, height: 844 } });
      const tab = await context.newPage();
      const answer = await tab.goto(refused);
      expect(answer?.status()).toBe(403);
      await tab.getByText('sends no email').waitFor();
      expect(await fits(tab), `refused link at ${width}`).toBe(true);
      await shoot(tab, `members-invite-refused-${width}`);
      await context.close();
    }
  });
});
