import { hashToken as hashSecret } from '../auth/token-secrets.js';
import { randomToken } from '../ids.js';
import { activeMemberships, findMemberListing, findPersonByEmail, findPersonById, updateMember } from '../store/queries/members.js';
import { deleteInviteLinks, findUsablePersonLink, insertPersonLink, spendPersonLink as spendStoredLink, type PersonLinkHolder as StoredHolder } from '../store/queries/person-sessions.js';
import type { PersonLinkPurpose } from '../store/schema-people.js';
import type { Db } from '../store/store.js';
import { recordAuditAs } from './audit-log.js';
import type { OperationContext, PersonPrincipal } from './context.js';
import { memberName, memberObject, normalizeEmail } from './member-info.js';
import { sendPersonLinkMail } from './person-mail.js';
import { emailName } from './rights.js';

/** A sign-in link sent by email works once, for 15 minutes (docs/members.md). */
export const emailLinkLifetimeMs = 15 * 60 * 1000;

/** Whom a usable invite or email link signs in, shown on its page before the button. */
export interface PersonLinkHolder {
  readonly name: string;
  readonly email: string;
  /** The workspace of an invite; null for an email sign-in link. */
  readonly workspace: string | null;
  readonly expiresAt: string;
  /**
   * How the link may sign in: `person` (it reached only the mailbox: every workspace of
   * theirs), `workspace` (an invite link the inviter saw too: this workspace only), or
   * `refused` (such a link of a person who belongs to another workspace: nobody).
   */
  readonly reach: 'person' | 'workspace' | 'refused';
}

/** Whom a spent link signs in: the person, and the one workspace the session may see when the link proved nothing about the address. */
export interface PersonSignIn {
  readonly personId: string;
  readonly limitedTo: string | null;
}

function possibleSecret(secret: string): boolean {
  return secret.length > 0 && secret.length <= 128;
}

/**
 * How far a link reaches (docs/members.md): only a link that reached the mailbox alone
 * proves control of the address. An invite link the inviter has seen may at most open the
 * inviting workspace, and never for a person who belongs to another.
 */
async function reachOf(db: Db, link: StoredHolder): Promise<PersonLinkHolder['reach']> {
  if (!link.shown || link.workspaceId === null) return 'person';
  const elsewhere = (await activeMemberships(db, link.personId)).some((membership) => membership.workspaceId !== link.workspaceId);
  return elsewhere ? 'refused' : 'workspace';
}

/** Who a link of the given purpose would sign in, without spending it; null if unknown, used, expired or of another purpose. */
export async function describePersonLink(context: OperationContext, purpose: PersonLinkPurpose, secret: string): Promise<PersonLinkHolder | null> {
  if (!possibleSecret(secret)) return null;
  const found = await findUsablePersonLink(context.store.db, hashSecret(secret), context.now());
  if (!found || found.purpose !== purpose) return null;
  return {
    name: memberName(found.name, found.email),
    email: found.email,
    workspace: found.workspaceSlug,
    expiresAt: new Date(found.expiresAt).toISOString(),
    reach: await reachOf(context.store.db, found),
  };
}

/**
 * Spends a link of the given purpose (the route it was opened at: an invite link is no
 * sign-in link, nor the other way round): an invite also makes its membership `active` and
 * spends the invite's other link, in the same transaction. Returns whom it signs in; null
 * if the link is unknown, used, expired or of another purpose, and `refused` for an invite
 * link the inviter saw of a person who belongs to another workspace (both left unspent).
 */
export async function spendPersonLink(context: OperationContext, purpose: PersonLinkPurpose, secret: string): Promise<PersonSignIn | 'refused' | null> {
  if (!possibleSecret(secret)) return null;
  const now = context.now();
  const idHash = hashSecret(secret);
  return context.store.transaction(async (trx) => {
    const found = await findUsablePersonLink(trx, idHash, now);
    if (!found || found.purpose !== purpose) return null;
    const reach = await reachOf(trx, found);
    if (reach === 'refused') return 'refused';
    const spent = await spendStoredLink(trx, idHash, purpose, now);
    if (!spent) return null;
    if (spent.memberId !== null) {
      await updateMember(trx, spent.memberId, { status: 'active' });
      await deleteInviteLinks(trx, spent.memberId);
      const joined = await findMemberListing(trx, spent.memberId);
      if (joined) {
        const actor = { type: 'member' as const, id: joined.member.id, name: memberName(joined.member.name, joined.person.email) };
        await recordAuditAs(trx, context, actor, null, { action: 'member.joined', workspaceId: joined.member.workspace_id, object: memberObject(joined) });
      }
    }
    return { personId: spent.personId, limitedTo: reach === 'workspace' ? found.workspaceId : null };
  });
}

/**
 * `/login/email`: emails a sign-in link if the address (compared as stored: trimmed, lower
 * case) is an active member's; otherwise does nothing. The caller answers the same either
 * way, and limits how often it is asked. A malformed address is `validation_failed`.
 */
export async function emailSignInLink(context: OperationContext, email: string): Promise<void> {
  const db = context.store.db;
  const person = await findPersonByEmail(db, normalizeEmail(email));
  if (!person || (await activeMemberships(db, person.id)).length === 0) return;
  const secret = randomToken(256);
  const now = context.now();
  await insertPersonLink(db, { idHash: hashSecret(secret), personId: person.id, memberId: null, purpose: 'email', shown: false, now, expiresAt: now + emailLinkLifetimeMs });
  // Greeted by the part of their address: a name is a workspace's, and this email is none's.
  sendPersonLinkMail(context, { to: person.email, kind: 'sign-in', url: `${context.urls.baseUrl}/login/email/${secret}`, name: emailName(person.email) });
}

/**
 * The person a session belongs to, with their active memberships (only that of `limitedTo`
 * for a session limited to one workspace), each with their name there; null if they are gone.
 */
export async function personPrincipal(context: OperationContext, personId: string, limitedTo: string | null): Promise<PersonPrincipal | null> {
  const person = await findPersonById(context.store.db, personId);
  if (!person) return null;
  const memberships = (await activeMemberships(context.store.db, personId))
    .filter((membership) => limitedTo === null || membership.workspaceId === limitedTo)
    .map((membership) => ({ memberId: membership.memberId, workspaceId: membership.workspaceId, role: membership.role, name: memberName(membership.name, person.email) }));
  return { kind: 'person', personId, email: person.email, memberships, limitedTo };
}
