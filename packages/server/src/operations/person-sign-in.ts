import { hashToken as hashSecret } from '../auth/token-secrets.js';
import { randomToken } from '../lib/ids.js';
import { activeMemberships, findMemberListing, findPersonByEmail, updateMember } from '../store/queries/members.js';
import { deleteLinksOfMember, insertLink, type UsableLink } from '../store/queries/one-time-links.js';
import type { Db } from '../store/store.js';
import { recordAuditAs } from './audit-log.js';
import type { OperationContext, PersonPrincipal } from './context.js';
import { memberName, memberObject, normalizeEmail } from './member-info.js';
import { queuePersonLinkMail } from './person-mail.js';
import { emailName } from './rights.js';

/** A sign-in link sent by email works once, for 15 minutes (docs/members.md). */
export const emailLinkLifetimeMs = 15 * 60 * 1000;

/**
 * How far a person's link reaches (docs/members.md, "Who gets a session"): `person` (it
 * reached only the mailbox: every workspace of theirs), `workspace` (an invite link the
 * inviter saw too: that workspace only), or `refused` (such a link of a person who is an
 * active member of another workspace: nobody).
 */
export type LinkReach = 'person' | 'workspace' | 'refused';

/** Only a link that reached the mailbox alone proves control of the address. */
export async function linkReach(db: Db, link: Pick<UsableLink, 'shown' | 'person' | 'member'>): Promise<LinkReach> {
  if (!link.shown || !link.member || !link.person) return 'person';
  const workspaceId = link.member.workspaceId;
  const elsewhere = (await activeMemberships(db, link.person.id)).some((membership) => membership.workspaceId !== workspaceId);
  return elsewhere ? 'refused' : 'workspace';
}

/** An invite spent: the membership becomes `active`, its other invite link stops working, and it joins the audit log. */
export async function joinByInvite(trx: Db, context: OperationContext, memberId: string): Promise<void> {
  await updateMember(trx, memberId, { status: 'active' });
  await deleteLinksOfMember(trx, memberId);
  const joined = await findMemberListing(trx, memberId);
  if (!joined) return;
  const actor = { type: 'member' as const, id: joined.member.id, name: memberName(joined.member.name, joined.person.email) };
  await recordAuditAs(trx, context, actor, null, { action: 'member.joined', workspaceId: joined.member.workspace_id, object: memberObject(joined) });
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
  const expiresAt = now + emailLinkLifetimeMs;
  await context.store.transaction(async (trx) => {
    await insertLink(trx, { idHash: hashSecret(secret), purpose: 'email', personId: person.id, now, expiresAt });
    // Greeted by the part of their address: a name is a workspace's, and this email is none's.
    await queuePersonLinkMail(trx, context, { to: person.email, kind: 'sign-in', url: `${context.urls.baseUrl}/login/email/${secret}`, name: emailName(person.email) }, expiresAt);
  });
  context.mail?.outbox.wake();
}

/**
 * A signed-in person with their active memberships (only that of `limitedTo` for a session
 * limited to one workspace), each with their name there.
 */
export async function personPrincipal(db: Db, person: { personId: string; email: string }, limitedTo: string | null): Promise<PersonPrincipal> {
  const memberships = (await activeMemberships(db, person.personId))
    .filter((membership) => limitedTo === null || membership.workspaceId === limitedTo)
    .map((membership) => ({ memberId: membership.memberId, workspaceId: membership.workspaceId, role: membership.role, name: memberName(membership.name, person.email) }));
  return { kind: 'person', personId: person.personId, email: person.email, memberships, limitedTo };
}
