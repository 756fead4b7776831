// Runs the real `svc` binary (packages/cli/dist) against a real `svc serve`: build first.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliTestServer, createProject, failOnFailPath, postJson, selectBackend, serviceJson, startCliTestServer, startReceiver, type WebhookReceiver } from '@svc/testkit';

const backend = await selectBackend();

/**
 * A token scoped to workspace A sees and changes only A: every operation on workspace B's
 * project, forms, submissions, webhooks and deliveries answers not_found, as if B did not
 * exist; it manages the tokens and members of A only (docs/members.md).
 */
describe.runIf(backend.available)(`the workspace boundary on ${backend.name}`, () => {
  let cli: CliTestServer;
  let receiver: WebhookReceiver;
  let tokenA: string;
  let directoryA: string;
  /** A directory whose service.json names B's project. */
  let directoryB: string;
  let webhookB: string;
  let deliveryB: string;
  let tokenIdB: string;

  beforeAll(async () => {
    cli = await startCliTestServer(['--allow-private-targets']);
    receiver = await startReceiver(failOnFailPath);
    directoryB = await createProject(cli, 'team-b', 'site', { forms: [{ slug: 'contact' }] });
    // Something to deploy, so that `svc deploy` gets as far as asking the server.
    await writeFile(join(directoryB, 'index.html'), '<h1>B</h1>');
    const formB = (await cli.svc(['forms', 'list', '--json'], { cwd: directoryB })).json<{ forms: { url: string }[] }>().forms[0]!;
    await postJson(formB.url, { email: 'b@example.com' });
    webhookB = (await cli.svc(['webhooks', 'add', '--url', `${receiver.url}/b`, '--events', 'deploy.*', '--json'], { cwd: directoryB })).json<{ webhook: { id: string } }>().webhook.id;
    const test = (await cli.svc(['webhooks', 'test', webhookB, '--json'], { cwd: directoryB })).json<{ delivery: { id: string } }>();
    deliveryB = test.delivery.id;
    await receiver.next();

    // A token is made for a workspace that exists: an admin makes team-a with a first project.
    await createProject(cli, 'team-a', 'first');
    const created = (await cli.svc(['tokens', 'create', '--name', 'team a', '--workspace', 'team-a', '--json'])).json<{ secret: string }>();
    tokenA = created.secret;
    tokenIdB = (await cli.svc(['tokens', 'create', '--workspace', 'team-b', '--json'])).json<{ token: { id: string } }>().token.id;
    // A workspace token creates projects in its own workspace.
    directoryA = await createProject(cli, 'team-a', 'site', { forms: [{ slug: 'contact' }] }, tokenA);
  });
  afterAll(async () => {
    await cli?.stop();
    await receiver?.close();
  });

  it('token A works in workspace A', async () => {
    const forms = await cli.svc(['forms', 'list', '--json'], { cwd: directoryA, token: tokenA });
    expect(forms.code).toBe(0);
    expect(forms.json()).toMatchObject({ ok: true, forms: [{ slug: 'contact' }] });
    expect((await cli.svc(['webhooks', 'list', '--json'], { cwd: directoryA, token: tokenA })).code).toBe(0);
  });

  const onB = ['--workspace', 'team-b', '--project', 'site'];
  const operations: readonly [string, readonly string[]][] = [
    ['pull', ['pull', ...onB]],
    ['push', ['push']],
    ['forms list', ['forms', 'list', ...onB]],
    ['forms set-rate-limit', ['forms', 'set-rate-limit', 'contact', '5/1m', ...onB]],
    ['submissions list', ['submissions', 'list', '--form', 'contact', ...onB]],
    ['submissions list --spam', ['submissions', 'list', '--form', 'contact', '--spam', ...onB]],
    ['submissions export', ['submissions', 'export', '--form', 'contact', '--output', 'b-export.csv', ...onB]],
    ['webhooks list', ['webhooks', 'list', ...onB]],
    ['webhooks add', ['webhooks', 'add', '--url', 'https://example.com/hook', '--events', 'form.*', ...onB]],
    ['webhooks remove', ['webhooks', 'remove', 'WEBHOOK_B', ...onB]],
    ['webhooks rotate-secret', ['webhooks', 'rotate-secret', 'WEBHOOK_B', ...onB]],
    ['webhooks test', ['webhooks', 'test', 'WEBHOOK_B', ...onB]],
    ['webhooks enable', ['webhooks', 'enable', 'WEBHOOK_B', ...onB]],
    ['webhooks disable', ['webhooks', 'disable', 'WEBHOOK_B', ...onB]],
    ['deliveries list', ['deliveries', 'list', ...onB]],
    ['deliveries show', ['deliveries', 'show', 'DELIVERY_B', ...onB]],
    ['deliveries resend', ['deliveries', 'resend', 'DELIVERY_B', ...onB]],
    ['pinpoints snippet', ['pinpoints', 'snippet', ...onB]],
    ['requests list', ['requests', 'list', '--status', 'all', ...onB]],
    ['requests show', ['requests', 'show', 'req_00000000000000000000000000', ...onB]],
    ['requests reply', ['requests', 'reply', 'req_00000000000000000000000000', '--message', 'hi', ...onB]],
    ['requests resolve', ['requests', 'resolve', 'req_00000000000000000000000000', ...onB]],
    ['requests reopen', ['requests', 'reopen', 'req_00000000000000000000000000', ...onB]],
    ['requests screenshot', ['requests', 'screenshot', 'req_00000000000000000000000000', '--output', 'b-shot.png', ...onB]],
    ['deploy', ['deploy', '--environment', 'production', ...onB]],
    ['deploys list', ['deploys', 'list', ...onB]],
    ['deploys promote', ['deploys', 'promote', 'dpl-00000000000000000000000000', '--to', 'production', ...onB]],
    ['deploys rollback', ['deploys', 'rollback', '--environment', 'production', ...onB]],
  ];

  describe('token A on workspace B', () => {
    for (const [name, template] of operations) {
      it(`${name}: not_found, as if workspace B did not exist`, async () => {
        const args = template.map((arg) => (arg === 'WEBHOOK_B' ? webhookB : arg === 'DELIVERY_B' ? deliveryB : arg));
        const result = await cli.svc([...args, '--json'], { cwd: directoryB, token: tokenA });
        expect(result.code).toBe(1);
        expect(result.json()).toEqual({ ok: false, error: { code: 'not_found', message: 'no workspace "team-b"' } });
      });
    }

    it('link: not_found', async () => {
      const result = await cli.svc(['link', ...onB, '--json'], { cwd: await cli.directory(), token: tokenA });
      expect(result.json()).toEqual({ ok: false, error: { code: 'not_found', message: 'no workspace "team-b"' } });
    });

    it('init in workspace B, or in a new workspace: not_found (only admin tokens create workspaces)', async () => {
      for (const workspace of ['team-b', 'team-new']) {
        const result = await cli.svc(['init', '--workspace', workspace, '--project', 'intruder', '--json'], { cwd: await cli.directory(), token: tokenA });
        expect(result.code).toBe(1);
        expect(result.json()).toEqual({ ok: false, error: { code: 'not_found', message: `no workspace "${workspace}"` } });
      }
    });

    it("B's webhook and delivery ids through A's own project: not_found", async () => {
      for (const args of [
        ['webhooks', 'remove', webhookB],
        ['webhooks', 'test', webhookB],
        ['webhooks', 'rotate-secret', webhookB],
        ['deliveries', 'show', deliveryB],
        ['deliveries', 'resend', deliveryB],
        ['deliveries', 'list', '--webhook', webhookB],
      ]) {
        const result = await cli.svc([...args, '--json'], { cwd: directoryA, token: tokenA });
        expect(result.code, args.join(' ')).toBe(1);
        expect(result.json<{ error: { code: string } }>().error.code, args.join(' ')).toBe('not_found');
      }
    });

    it("B's tokens and members are not there for token A (not_found), and A's are A's to manage", async () => {
      for (const args of [['tokens', 'create', '--workspace', 'team-b'], ['tokens', 'revoke', tokenIdB], ['members', 'list', '--workspace', 'team-b'], ['members', 'invite', 'b@example.com', '--workspace', 'team-b']]) {
        const result = await cli.svc([...args, '--json'], { token: tokenA });
        expect(result.code, args.join(' ')).toBe(1);
        expect(result.json<{ error: { code: string } }>().error.code, args.join(' ')).toBe('not_found');
      }
      const escalate = await cli.svc(['tokens', 'create', '--name', 'escalate', '--admin', '--json'], { token: tokenA });
      expect(escalate.code).toBe(1);
      expect(escalate.json<{ error: { code: string } }>().error.code).toBe('forbidden');
      const made = (await cli.svc(['tokens', 'create', '--name', 'helper', '--workspace', 'team-a', '--json'], { token: tokenA })).json<{ token: { workspace: string | null } }>();
      expect(made.token.workspace).toBe('team-a');
      const listed = (await cli.svc(['tokens', 'list', '--json'], { token: tokenA })).json<{ tokens: { workspace: string | null }[] }>();
      expect(listed.tokens.length).toBeGreaterThan(0);
      expect(listed.tokens.every((token) => token.workspace === 'team-a')).toBe(true);
    });
  });

  it("nothing of B changed: its forms, webhook and submissions are as they were", async () => {
    const forms = (await cli.svc(['forms', 'list', '--json'], { cwd: directoryB })).json<{ forms: { rateLimit: unknown }[] }>();
    expect(forms.forms).toEqual([expect.objectContaining({ rateLimit: null })]);
    const webhooks = (await cli.svc(['webhooks', 'list', '--json'], { cwd: directoryB })).json<{ webhooks: { id: string; enabled: boolean }[] }>();
    expect(webhooks.webhooks).toEqual([expect.objectContaining({ id: webhookB, enabled: true })]);
    const submissions = (await cli.svc(['submissions', 'list', '--form', 'contact', '--json'], { cwd: directoryB })).json<{ submissions: unknown[] }>();
    expect(submissions.submissions).toHaveLength(1);
    const tokens = (await cli.svc(['tokens', 'list', '--json'])).json<{ tokens: { id: string; revokedAt: string | null }[] }>();
    expect(tokens.tokens.find((token) => token.id === tokenIdB)?.revokedAt).toBeNull();
    // The push that named B's project in service.json left B's configuration alone.
    await writeFile(join(directoryB, 'service.json'), serviceJson('team-b', 'site', { forms: [{ slug: 'contact' }] }));
    expect((await cli.svc(['push', '--json'], { cwd: directoryB })).json()).toMatchObject({ changed: false });
  });
});
