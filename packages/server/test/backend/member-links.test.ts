import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminPrincipal, type MailServer, newEncryptionKey, operationContext, selectBackend, startMailServer } from '@svc/testkit';
import { useBackendStore } from '@svc/testkit/vitest';
import { MailOutboxWorker } from '../../src/delivery/mail-outbox.js';
import type { OperationContext } from '../../src/operations/context.js';
import { inviteLifetimeMs, inviteMember, removeMember } from '../../src/operations/members.js';
import { emailLinkLifetimeMs, emailSignInLink, personPrincipal } from '../../src/operations/person-sign-in.js';
import { describeLink, spendLink } from '../../src/operations/sign-in-links.js';
import { ensureWorkspace } from '../../src/store/queries/projects.js';
import { parseEncryptionKey } from '../../src/secrets/encryption-key.js';

const backend = await selectBackend();

/** Invite and email links over time and by how far they reach, with a clock the test moves (no sleeping). */
describe.runIf(backend.available)(`invite and email sign-in links on ${backend.name}`, () => {
  const suite = useBackendStore();
  let clock = Date.UTC(2026, 0, 1);
  let context: OperationContext;
  let mail: MailServer;
  let outbox: MailOutboxWorker;
  const workspaceIds: Record<string, string> = {};

  beforeAll(async () => {
    mail = await startMailServer();
    const options = { dataDir: suite.environment.dataDir, encryptionKey: parseEncryptionKey(newEncryptionKey()), smtpUrl: mail.url, mailFrom: 'svc@agency.example' };
    context = { ...operationContext(suite.store, options), now: () => clock };
    // The emails go through the mail outbox, as in svc serve; its clock is the test's.
    outbox = new MailOutboxWorker({ store: suite.store, box: context.secrets, sender: context.mail!.sender, policy: context.delivery.policy, pollIntervalMs: 60_000, leaseMs: 60_000, logger: context.logger, now: () => clock });
    context.mail!.outbox.bind(() => outbox.wake());
    outbox.start();
    for (const slug of ['acme', 'globex']) workspaceIds[slug] = (await ensureWorkspace(suite.store.db, slug, clock)).id;
  });
  afterAll(async () => {
    await outbox?.stop();
    context?.mail?.sender.close();
    await mail?.close();
  });

  const secretOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
  /** Invites, and returns the secrets of the link shown and of the one emailed. */
  const invite = async (email: string, workspace: string) => {
    const before = mail.mails.length;
    const { inviteUrl, member } = await inviteMember(context, adminPrincipal, { email, workspace });
    await mail.waitFor(before + 1);
    const emailed = /\/login\/invite\/([0-9a-z]+)/.exec(mail.mails[before]!.raw.replace(/=\r?\n/g, ''))![1]!;
    return { member, shown: secretOf(inviteUrl), emailed };
  };

  it('an invite works until 7 days have passed, then never', async () => {
    const { shown, emailed } = await invite('late@agency.example', 'acme');
    clock += inviteLifetimeMs - 1;
    for (const secret of [shown, emailed]) expect(await describeLink(context, 'invite', secret)).toMatchObject({ email: 'late@agency.example', workspace: 'acme' });
    clock += 1;
    for (const secret of [shown, emailed]) {
      expect(await describeLink(context, 'invite', secret)).toBeNull();
      expect(await spendLink(context, 'invite', secret)).toBeNull();
    }
  });

  it('the emailed invite signs in as the person; the shown one opens the inviting workspace only, and each spends the other', async () => {
    const first = await invite('sam@agency.example', 'acme');
    expect(await describeLink(context, 'invite', first.emailed)).toMatchObject({ reach: 'person' });
    expect(await describeLink(context, 'invite', first.shown)).toMatchObject({ reach: 'workspace' });
    const signIn = await spendLink(context, 'invite', first.emailed);
    expect(signIn).toEqual({ kind: 'person', personId: expect.stringMatching(/^per_/), limitedTo: null });
    expect(await spendLink(context, 'invite', first.shown)).toBeNull();

    // Sam is active in acme: globex's shown link cannot add globex to his account, and stays unspent.
    const second = await invite('sam@agency.example', 'globex');
    expect(await describeLink(context, 'invite', second.shown)).toMatchObject({ reach: 'refused' });
    expect(await spendLink(context, 'invite', second.shown)).toBe('refused');
    expect(await spendLink(context, 'invite', second.shown)).toBe('refused');
    // Once he no longer belongs to acme, it opens globex, and globex only.
    const sam = { personId: (signIn as { personId: string }).personId, email: 'sam@agency.example' };
    const acme = (await personPrincipal(suite.store.db, sam, null)).memberships[0]!;
    await removeMember(context, adminPrincipal, { id: acme.memberId });
    const limited = await spendLink(context, 'invite', second.shown);
    expect(limited).toEqual({ kind: 'person', personId: sam.personId, limitedTo: workspaceIds['globex'] });
    expect(await spendLink(context, 'invite', second.emailed)).toBeNull();
  });

  it('a session limited to a workspace sees that membership only', async () => {
    const first = await invite('kim@agency.example', 'acme');
    const signIn = (await spendLink(context, 'invite', first.emailed)) as { personId: string };
    const second = await invite('kim@agency.example', 'globex');
    await spendLink(context, 'invite', second.emailed);
    const kim = { personId: signIn.personId, email: 'kim@agency.example' };
    const everywhere = await personPrincipal(suite.store.db, kim, null);
    expect(everywhere.memberships.map((membership) => membership.workspaceId).sort()).toEqual([workspaceIds['acme'], workspaceIds['globex']].sort());
    const limited = await personPrincipal(suite.store.db, kim, workspaceIds['globex']!);
    expect(limited.memberships.map((membership) => membership.workspaceId)).toEqual([workspaceIds['globex']]);
    expect(limited.limitedTo).toBe(workspaceIds['globex']);
  });

  it('a malformed address is validation_failed', async () => {
    await expect(emailSignInLink(context, 'not-an-email')).rejects.toMatchObject({ code: 'validation_failed' });
  });

  it('an email link works for 15 minutes, once; an invited (not yet active) address gets none', async () => {
    const { shown } = await invite('lee@agency.example', 'acme');
    await emailSignInLink(context, 'lee@agency.example');
    const emailLinks = () =>
      suite.store.db.selectFrom('one_time_links').innerJoin('people', 'people.id', 'one_time_links.person_id').selectAll('one_time_links').where('purpose', '=', 'email').where('people.email', '=', 'lee@agency.example').execute();
    expect(await emailLinks()).toHaveLength(0);
    // An invite is no email sign-in link: asked for as one, it is unknown and stays unspent.
    expect(await describeLink(context, 'email', shown)).toBeNull();
    expect(await spendLink(context, 'email', shown)).toBeNull();
    expect(await spendLink(context, 'invite', shown)).toMatchObject({ personId: expect.stringMatching(/^per_/) });
    expect(await spendLink(context, 'invite', shown)).toBeNull();
    // The address is compared as stored (trimmed, lower case), whoever calls.
    await emailSignInLink(context, ' Lee@Agency.EXAMPLE ');
    const links = await emailLinks();
    expect(links).toHaveLength(1);
    expect(Number(links[0]!.expires_at) - clock).toBe(emailLinkLifetimeMs);
    expect(Number(links[0]!.shown)).toBe(0);
  });
});
