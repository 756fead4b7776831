import { beforeAll, describe, expect, it } from 'vitest';
import { adminPrincipal, newEncryptionKey, operationContext, selectBackend } from '@svc/testkit';
import { useBackendStore } from '@svc/testkit/vitest';
import type { OperationContext } from '../../src/operations/context.js';
import { inviteLifetimeMs, inviteMember } from '../../src/operations/members.js';
import { describePersonLink, emailLinkLifetimeMs, emailSignInLink, spendPersonLink } from '../../src/operations/person-sign-in.js';
import { ensureWorkspace } from '../../src/store/queries/projects.js';
import { parseEncryptionKey } from '../../src/secrets/encryption-key.js';

const backend = await selectBackend();

/** The time-bound parts of invites and email links, with a clock the test moves (no sleeping). */
describe.runIf(backend.available)(`invite and email sign-in links over time on ${backend.name}`, () => {
  const suite = useBackendStore();
  let clock = Date.UTC(2026, 0, 1);
  let context: OperationContext;

  beforeAll(async () => {
    context = { ...operationContext(suite.store, { dataDir: suite.environment.dataDir, encryptionKey: parseEncryptionKey(newEncryptionKey()) }), now: () => clock };
    await ensureWorkspace(suite.store.db, 'acme', clock);
  });

  const secretOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

  it('an invite works until 7 days have passed, then never', async () => {
    const { inviteUrl } = await inviteMember(context, adminPrincipal, { email: 'late@agency.example', workspace: 'acme' });
    const secret = secretOf(inviteUrl);
    clock += inviteLifetimeMs - 1;
    expect(await describePersonLink(context, 'invite', secret)).toMatchObject({ email: 'late@agency.example', workspace: 'acme' });
    clock += 1;
    expect(await describePersonLink(context, 'invite', secret)).toBeNull();
    expect(await spendPersonLink(context, 'invite', secret)).toBeNull();
  });

  it('a malformed address is validation_failed', async () => {
    await expect(emailSignInLink(context, 'not-an-email')).rejects.toMatchObject({ code: 'validation_failed' });
  });

  it('an email link works for 15 minutes, once; an invited (not yet active) address gets none', async () => {
    const { inviteUrl } = await inviteMember(context, adminPrincipal, { email: 'sam@agency.example', workspace: 'acme' });
    await emailSignInLink(context, 'sam@agency.example');
    expect(await suite.store.db.selectFrom('person_links').selectAll().where('purpose', '=', 'email').execute()).toHaveLength(0);
    // An invite is no email sign-in link: asked for as one, it is unknown and stays unspent.
    expect(await describePersonLink(context, 'email', secretOf(inviteUrl))).toBeNull();
    expect(await spendPersonLink(context, 'email', secretOf(inviteUrl))).toBeNull();
    const personId = await spendPersonLink(context, 'invite', secretOf(inviteUrl));
    expect(personId).toMatch(/^per_/);
    expect(await spendPersonLink(context, 'invite', secretOf(inviteUrl))).toBeNull();
    // The address is compared as stored (trimmed, lower case), whoever calls.
    await emailSignInLink(context, ' Sam@Agency.EXAMPLE ');
    const links = await suite.store.db.selectFrom('person_links').selectAll().where('purpose', '=', 'email').execute();
    expect(links).toHaveLength(1);
    expect(Number(links[0]!.expires_at) - clock).toBe(emailLinkLifetimeMs);
  });
});
