// Runs the real `svc` binary (packages/cli/dist) against a real `svc serve`: build first.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '@svc/server';
import { ensureWorkspace } from '@svc/server/testing';
import { type CliTestServer, createProject, deployThroughApi, eventually, PageSession, postJson, selectBackend, serviceJson, startCliTestServer, startReceiver, type WebhookReceiver } from '@svc/testkit';

const backend = await selectBackend();

interface Entry {
  id: string;
  at: string;
  actor: { type: string; id: string; name: string };
  action: string;
  workspace: string | null;
  project: string | null;
  object: { type: string; id: string } | null;
  ip: string | null;
}
interface Page {
  ok: true;
  entries: Entry[];
  nextCursor: string | null;
}

const workspace = 'acme';
const project = 'site';
const day = 86_400_000;

/**
 * The audit log (docs/privacy.md): every change made through the CLI API and the settings
 * area writes one entry in its own transaction, naming who acted; it is read by admin tokens
 * and the workspace's tokens, filtered and paged, and removed after --retention-audit.
 */
describe.runIf(backend.available)(`the audit log on ${backend.name}`, () => {
  let cli: CliTestServer;
  let receiver: WebhookReceiver;
  let store: Store;
  let directory: string;
  /** A token of the workspace named as a person would name it, which makes most changes. */
  let samToken: string;
  let samId: string;
  const secrets: string[] = [];
  const submitted = 'Please call me about the confidential merger, code name BLUEBIRD';
  const email = 'jo.private@example.com';

  const as = (token: string) => ({ cwd: directory, token });
  const svcOk = async (args: readonly string[], options: { cwd?: string; token?: string } = {}) => {
    const result = await cli.svc(args, options);
    expect(result.code, `svc ${args.join(' ')}: ${result.stderr}${result.stdout}`).toBe(0);
    return result;
  };
  const readLog = async (args: readonly string[] = [], token?: string): Promise<Page> => {
    const result = await cli.svc(['audit-log', '--limit', '200', '--json', ...args], token === undefined ? {} : { token });
    expect(result.code, result.stderr + result.stdout).toBe(0);
    return result.json<Page>();
  };

  beforeAll(async () => {
    cli = await startCliTestServer(['--allow-private-targets', '--retry-schedule', '1h', '--maintenance-interval', '200ms', '--retention-audit', '30d']);
    store = await cli.environment.openStore();
    receiver = await startReceiver(() => ({ status: 200 }));

    // Tokens are made for workspaces that exist; the project that follows is Sam's own doing.
    await ensureWorkspace(store.db, workspace);
    await ensureWorkspace(store.db, 'other');
    const sam = (await svcOk(['tokens', 'create', '--name', 'Sam Okafor (laptop)', '--workspace', workspace, '--json'])).json<{ secret: string; token: { id: string } }>();
    samToken = sam.secret;
    samId = sam.token.id;
    secrets.push(samToken);
    directory = await createProject(cli, workspace, project, { forms: [{ slug: 'contact' }], pinpoints: { production: true } }, samToken);

    await svcOk(['forms', 'set', 'contact', '--success-url', 'https://example.com/thanks'], as(samToken));
    const added = (await svcOk(['webhooks', 'add', '--url', `${receiver.url}/hook`, '--events', '*', '--json'], as(samToken))).json<{ secret: string; webhook: { id: string } }>();
    secrets.push(added.secret);
    const webhook = added.webhook.id;
    secrets.push((await svcOk(['webhooks', 'rotate-secret', webhook, '--json'], as(samToken))).json<{ secret: string }>().secret);
    await svcOk(['webhooks', 'disable', webhook], as(samToken));
    await svcOk(['webhooks', 'enable', webhook], as(samToken));
    const tested = (await svcOk(['webhooks', 'test', webhook, '--json'], as(samToken))).json<{ delivery: { id: string } }>();
    await svcOk(['deliveries', 'resend', tested.delivery.id], as(samToken));
    // A second test succeeds at once, so the replay has a finished delivery to queue again.
    await svcOk(['webhooks', 'test', webhook], as(samToken));
    await svcOk(['deliveries', 'replay', '--webhook', webhook, '--since', '1h', '--status', 'all'], as(samToken));
    const spare = (await svcOk(['webhooks', 'add', '--url', `${receiver.url}/spare`, '--events', 'deploy.*', '--json'], as(samToken))).json<{ webhook: { id: string } }>().webhook.id;
    await svcOk(['webhooks', 'remove', spare], as(samToken));
    const temporary = (await svcOk(['tokens', 'create', '--name', 'temporary', '--workspace', workspace, '--json'])).json<{ token: { id: string } }>().token.id;
    await svcOk(['tokens', 'revoke', temporary]);

    const formUrl = (await svcOk(['forms', 'list', '--json'], as(samToken))).json<{ forms: { url: string }[] }>().forms[0]!.url;
    const withFile = new FormData();
    withFile.set('email', email);
    withFile.set('message', submitted);
    withFile.set('brief', new Blob(['the brief'], { type: 'application/pdf' }), 'bluebird-brief.pdf');
    expect((await fetch(formUrl, { method: 'POST', body: withFile })).status).toBe(200);
    const submission = (await svcOk(['submissions', 'list', '--form', 'contact', '--json'], as(samToken))).json<{ submissions: { id: string }[] }>().submissions[0]!.id;
    await svcOk(['submissions', 'download', submission, '--output', join(directory, 'downloads')], as(samToken));
    await svcOk(['submissions', 'move', submission, '--to', 'spam'], as(samToken));
    await svcOk(['submissions', 'export', '--form', 'contact', '--spam', '--output', join(directory, 'export.csv')], as(samToken));
    await svcOk(['submissions', 'delete', submission], as(samToken));
    expect((await postJson(formUrl, { email, message: submitted })).status).toBe(200);
    await svcOk(['submissions', 'erase', '--email', email, '--yes'], as(samToken));

    const key = /data-key="([^"]+)"/.exec((await svcOk(['pinpoints', 'snippet'], as(samToken))).stdout)![1]!;
    const feedback = new FormData();
    feedback.set('comment', 'The button is hidden');
    feedback.set('url', 'https://example.com/');
    feedback.set('environment', 'production');
    const sent = await fetch(`${cli.url}/api/p/${key}/requests`, { method: 'POST', body: feedback });
    expect(sent.status, await sent.clone().text()).toBe(200);
    const requestId = ((await sent.json()) as { id: string }).id;
    await svcOk(['requests', 'reply', requestId, '--message', 'Fixed, thanks'], as(samToken));
    await svcOk(['requests', 'resolve', requestId], as(samToken));
    await svcOk(['requests', 'reopen', requestId], as(samToken));
    await svcOk(['requests', 'set', '--retention', '180d'], as(samToken));
    // The same retention again changes nothing, and is not recorded.
    await svcOk(['requests', 'set', '--retention', '180d'], as(samToken));
    await svcOk(['requests', 'delete', requestId, '--yes'], as(samToken));

    const target = { workspace, project, environment: 'production' };
    const first = await deployThroughApi(cli.url, samToken, target, { 'index.html': '<h1>one</h1>' });
    await deployThroughApi(cli.url, samToken, target, { 'index.html': '<h1>two</h1>' });
    await svcOk(['deploys', 'rollback', '--environment', 'production'], as(samToken));
    const second = (await svcOk(['deploys', 'list', '--json'], as(samToken))).json<{ deploys: { id: string }[] }>().deploys.find((deploy) => deploy.id !== first)!.id;
    await svcOk(['deploys', 'promote', second, '--to', 'production'], as(samToken));

    const session = new PageSession(cli.url);
    expect((await session.signIn(samToken)).status).toBe(303);
  }, 300_000);
  afterAll(async () => {
    await store?.close();
    await receiver?.close();
    await cli?.stop();
  });

  it('records each change once, naming the token that made it and what it changed', async () => {
    const { entries } = await readLog(['--workspace', workspace]);
    const count = (action: string) => entries.filter((entry) => entry.action === action).length;
    const once = [
      'project.created',
      'config.pushed',
      'form.settings_changed',
      'webhook.secret_rotated',
      'webhook.deleted',
      'delivery.resent',
      'deliveries.replayed',
      'submission.downloaded',
      'token.revoked',
      'submission.moved',
      'submissions.exported',
      'submission.deleted',
      'submissions.erased',
      'request.replied',
      'request.resolved',
      'request.reopened',
      'request.deleted',
      'requests.settings_changed',
      'deploy.rolled_back',
      'deploy.promoted',
      'session.started',
    ];
    for (const action of once) expect.soft(count(action), action).toBe(1);
    expect(count('webhook.updated')).toBe(2);
    expect(count('webhook.created')).toBe(2);
    expect(count('webhook.tested')).toBe(2);
    expect(count('token.created')).toBe(2);
    expect(count('deploy.created')).toBe(2);
    for (const entry of entries.filter((entry) => !entry.action.startsWith('token.'))) {
      expect.soft(entry.actor, entry.action).toEqual({ type: 'token', id: samId, name: 'Sam Okafor (laptop)' });
      expect.soft(entry.workspace).toBe(workspace);
      expect.soft(entry.ip, entry.action).toMatch(/^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/);
    }
    const created = entries.find((entry) => entry.action === 'token.created' && entry.object?.id === samId)!;
    expect(created).toMatchObject({ actor: { type: 'token', name: 'bootstrap' }, workspace, project: null, object: { type: 'token', id: samId } });
    expect(entries.find((entry) => entry.action === 'token.revoked')).toMatchObject({ actor: { type: 'token', name: 'bootstrap' }, workspace });
    expect(entries.find((entry) => entry.action === 'submission.downloaded')).toMatchObject({ project, object: { type: 'submission' } });
    expect(entries.find((entry) => entry.action === 'project.created')).toMatchObject({ project, object: { type: 'project', id: project } });
    expect(entries.find((entry) => entry.action === 'form.settings_changed')).toMatchObject({ project, object: { type: 'form', id: 'contact' } });
    expect(entries.find((entry) => entry.action === 'session.started')).toMatchObject({ project: null, object: null });
    expect(entries.find((entry) => entry.action === 'request.deleted')).toMatchObject({ project, object: { type: 'request', id: expect.stringMatching(/^req_/) } });
    expect(entries.find((entry) => entry.action === 'requests.settings_changed')).toMatchObject({ project, object: null });
    // Newest first, ids in order.
    expect(entries.map((entry) => entry.id)).toEqual([...entries.map((entry) => entry.id)].sort().reverse());
  });

  it('never keeps a submitted field, an email address searched for, a secret or a token', async () => {
    const text = JSON.stringify(await readLog());
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toContain('BLUEBIRD');
    expect(text).not.toContain('bluebird-brief');
    expect(text).not.toContain(email);
    expect(text).not.toContain('Fixed, thanks');
    const rows = JSON.stringify(await store.db.selectFrom('audit_log').selectAll().execute());
    for (const secret of [...secrets, 'BLUEBIRD', 'bluebird-brief', email]) expect(rows).not.toContain(secret);
  });

  it('writes nothing for a change that fails or is rolled back', { timeout: 240_000 }, async () => {
    const before = (await readLog(['--workspace', workspace])).entries.length;
    // A dry run does all the work of a push, its audit entry included, then rolls it back.
    await writeFile(join(directory, 'service.json'), serviceJson(workspace, project, { forms: [{ slug: 'contact' }, { slug: 'quote' }], pinpoints: { production: true } }));
    const dry = await cli.svc(['push', '--dry-run', '--json'], as(samToken));
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.json()).toMatchObject({ dryRun: true, changed: true });
    // Refused changes: a webhook URL that is not one, a rollback with nothing before it, the last admin token.
    expect((await cli.svc(['webhooks', 'add', '--url', 'not a url', '--events', '*'], as(samToken))).code).toBe(1);
    expect((await cli.svc(['deploys', 'rollback', '--environment', 'production', 'dpl-nope'], as(samToken))).code).toBe(1);
    const admins = (await svcOk(['tokens', 'list', '--json'])).json<{ tokens: { id: string; workspace: string | null }[] }>().tokens.filter((token) => token.workspace === null);
    expect(admins).toHaveLength(1);
    expect((await cli.svc(['tokens', 'revoke', admins[0]!.id])).code).toBe(1);
    expect((await readLog(['--workspace', workspace])).entries.length).toBe(before);
    expect((await readLog(['--action', 'token.revoked'])).entries).toHaveLength(1);
    // The same push for real writes its entry.
    await svcOk(['push'], as(samToken));
    expect((await readLog(['--workspace', workspace, '--action', 'config.pushed'])).entries).toHaveLength(2);
    // Pushing what is in place changes nothing and writes nothing.
    await svcOk(['push'], as(samToken));
    expect((await readLog(['--workspace', workspace, '--action', 'config.pushed'])).entries).toHaveLength(2);
  });

  it('is read by admin tokens and the workspace\'s tokens only', { timeout: 240_000 }, async () => {
    const other = (await svcOk(['tokens', 'create', '--name', 'other agency', '--workspace', 'other', '--json'])).json<{ secret: string }>().secret;
    // Another workspace's token: the workspace does not exist for it.
    const refused = await cli.svc(['audit-log', '--workspace', workspace, '--json'], { token: other });
    expect(refused.code).toBe(1);
    expect(refused.json()).toMatchObject({ ok: false, error: { code: 'not_found' } });
    // Without --workspace, a workspace token reads its own workspace's entries, and the admin every one.
    const own = await readLog([], other);
    expect(own.entries.every((entry) => entry.workspace === 'other')).toBe(true);
    const samsView = await readLog([], samToken);
    expect(samsView.entries.length).toBeGreaterThan(20);
    expect(samsView.entries.every((entry) => entry.workspace === workspace)).toBe(true);
    const all = await readLog([]);
    expect(all.entries.some((entry) => entry.workspace === 'other')).toBe(true);
    expect(all.entries.some((entry) => entry.workspace === workspace)).toBe(true);

    // The page: the workspace's tokens read it, another workspace's get 404.
    const mine = new PageSession(cli.url);
    await mine.signIn(samToken);
    const page = await mine.get(`/settings/${workspace}/audit`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1>Audit log</h1>');
    expect(page.text).toContain('webhook.secret_rotated');
    expect(page.text).toContain('Sam Okafor (laptop)');
    const theirs = new PageSession(cli.url);
    await theirs.signIn(other);
    expect((await theirs.get(`/settings/${workspace}/audit`)).status).toBe(404);
  });

  it('filters by project, action and time, and pages through every entry once', { timeout: 240_000 }, async () => {
    await createProject(cli, workspace, 'blog', {}, samToken);
    const blog = await readLog(['--workspace', workspace, '--project', 'blog']);
    expect(blog.entries.map((entry) => entry.action)).toEqual(['project.created']);
    const rotated = await readLog(['--workspace', workspace, '--action', 'webhook.secret_rotated']);
    expect(rotated.entries).toHaveLength(1);
    expect((await readLog(['--workspace', workspace, '--since', new Date(Date.now() + 60_000).toISOString()])).entries).toEqual([]);
    expect((await readLog(['--workspace', workspace, '--since', '1h'])).entries.length).toBeGreaterThan(20);

    const all = (await readLog(['--workspace', workspace])).entries.map((entry) => entry.id);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const result = await cli.svc(['audit-log', '--workspace', workspace, '--limit', '7', '--json', ...(cursor === null ? [] : ['--cursor', cursor])]);
      const page = result.json<Page>();
      expect(page.entries.length).toBeLessThanOrEqual(7);
      paged.push(...page.entries.map((entry) => entry.id));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(paged).toEqual(all);

    // For people: a table, and how to get the next page on stderr.
    const human = await cli.svc(['audit-log', '--workspace', workspace, '--limit', '2']);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/AT +ACTOR +ACTION +WHERE +OBJECT +CHANGE +IP/);
    expect(human.stdout).toContain(`Sam Okafor (laptop) (token ${samId})`);
    expect(human.stderr).toContain('More: svc audit-log --cursor ');

    // The page filters and pages the same way.
    const session = new PageSession(cli.url);
    await session.signIn(samToken);
    const filtered = await session.get(`/settings/${workspace}/audit?project=blog&action=project.created`);
    expect(filtered.status).toBe(200);
    expect(filtered.text.match(/<tr>/g)?.length).toBe(2);
    // More than a page of the page's 50 entries.
    const have = (await readLog(['--workspace', workspace])).entries.length;
    for (let round = 0; round < 55 - have; round++) {
      const changed = await fetch(`${cli.url}/api/cli/projects/${workspace}/${project}/forms/contact`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${samToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({ successUrl: `https://example.com/thanks/${round}` }),
      });
      expect(changed.status).toBe(200);
    }
    const first = await session.get(`/settings/${workspace}/audit`);
    expect(first.text.match(/<tr>/g)?.length).toBe(51);
    const older = /href="([^"]+cursor=[^"]+)"[^>]*>Older/.exec(first.text)?.[1];
    expect(older).toBeDefined();
    expect((await session.get(older!.replaceAll('&amp;', '&'))).status).toBe(200);
  });

  it('answers bad filters and cursors with the documented errors', { timeout: 240_000 }, async () => {
    const failure = async (args: readonly string[], code: string, exit = 1) => {
      const result = await cli.svc(['audit-log', ...args, '--json']);
      expect(result.code, result.stdout).toBe(exit);
      expect(result.json()).toMatchObject({ ok: false, error: { code } });
    };
    await failure(['--workspace', workspace, '--action', 'webhook.exploded'], 'validation_failed');
    await failure(['--workspace', workspace, '--cursor', 'not-a-cursor'], 'invalid_cursor');
    await failure(['--workspace', workspace, '--since', 'last tuesday'], 'usage', 2);
    await failure(['--workspace', workspace, '--limit', '0'], 'usage', 2);
    await failure(['--workspace', 'nowhere'], 'not_found');
    await failure(['--workspace', workspace, '--project', 'nothing-here'], 'not_found');
    await failure(['--project', project], 'validation_failed');

    const api = (query: string) => fetch(`${cli.url}/api/cli/audit-log?${query}`, { headers: { authorization: `Bearer ${cli.adminToken}` } });
    const expectError = async (query: string, status: number, error: string) => {
      const answer = await api(query);
      expect(answer.status, query).toBe(status);
      expect(await answer.json()).toMatchObject({ ok: false, error });
    };
    await expectError('since=yesterday', 422, 'validation_failed');
    await expectError('since=2026-13-45T99:00:00Z', 422, 'validation_failed');
    await expectError('limit=0', 400, 'invalid_body');
    await expectError('limit=100000', 400, 'invalid_body');
    await expectError(`workspace=${'x'.repeat(80)}`, 400, 'invalid_body');
    await expectError('colour=blue', 400, 'invalid_body');
    // A cursor of another listing.
    const deliveries = (await cli.svc(['deliveries', 'list', '--limit', '1', '--json'], as(samToken))).json<{ nextCursor: string | null }>();
    if (deliveries.nextCursor !== null) await expectError(`cursor=${deliveries.nextCursor}`, 400, 'invalid_cursor');
    await expectError(`cursor=${Buffer.from('v1:audit:dlv_x').toString('base64url')}`, 400, 'invalid_cursor');
    expect((await fetch(`${cli.url}/api/cli/audit-log`)).status).toBe(401);

    // The page says what was wrong and shows the newest entries.
    const session = new PageSession(cli.url);
    await session.signIn(samToken);
    const page = await session.get(`/settings/${workspace}/audit?cursor=garbage`);
    expect(page.status).toBe(400);
    expect(page.text).toContain('cursor');
    expect(page.text).toContain('<table');
  });

  it('removes entries older than --retention-audit and keeps the rest', async () => {
    const entries = (await readLog(['--workspace', workspace])).entries;
    const old = entries.slice(-3).map((entry) => entry.id);
    await store.db.updateTable('audit_log').set({ at: Date.now() - 31 * day }).where('id', 'in', old).execute();
    await eventually(
      async () => (await store.db.selectFrom('audit_log').select('id').where('id', 'in', old).execute()).length,
      (left) => left === 0,
      'the retention job',
    );
    const kept = (await readLog(['--workspace', workspace])).entries.map((entry) => entry.id);
    expect(kept).toEqual(entries.map((entry) => entry.id).filter((id) => !old.includes(id)));
  });
});
