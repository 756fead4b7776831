import { hashToken as hashSecret } from '../auth/token-secrets.js';
import { randomToken } from '../ids.js';
import { activeMemberships, findMemberListing, findPersonByEmail, findPersonById, updateMember } from '../store/queries/members.js';
import { findUsablePersonLink, insertPersonLink, spendPersonLink as spendStoredLink } from '../store/queries/person-sessions.js';
import type { PersonLinkPurpose } from '../store/schema-people.js';
import { recordAuditAs } from './audit-log.js';
import type { OperationContext, PersonPrincipal } from './context.js';
import { displayName, normalizeEmail } from './member-info.js';
import { sendPersonLinkMail } from './person-mail.js';

/** A sign-in link sent by email works once, for 15 minutes (docs/members.md). */
export const emailLinkLifetimeMs = 15 * 60 * 1000;

/** Whom a usable invite or email link signs in, shown on its page before the button. */
export interface PersonLinkHolder {
  readonly name: string;
  readonly email: string;
  /** The workspace of an invite; null for an email sign-in link. */
  readonly workspace: string | null;
  readonly expiresAt: string;
}

function possibleSecret(secret: string): boolean {
  return secret.length > 0 && secret.length <= 128;
}

/** Who a link of the given purpose would sign in, without spending it; null if unknown, used, expired or of another purpose. */
export async function describePersonLink(context: OperationContext, purpose: PersonLinkPurpose, secret: string): Promise<PersonLinkHolder | null> {
  if (!possibleSecret(secret)) return null;
  const found = await findUsablePersonLink(context.store.db, hashSecret(secret), context.now());
  if (!found || found.purpose !== purpose) return null;
  return { name: displayName(found), email: found.email, workspace: found.workspaceSlug, expiresAt: new Date(found.expiresAt).toISOString() };
}

/**
 * Spends a link of the given purpose (the route it was opened at: an invite link is no
 * sign-in link, nor the other way round): an invite also makes its membership `active`, in
 * the same transaction. Returns the person it signs in, or null if the link is unknown,
 * used, expired or of another purpose (then it is left unspent).
 */
export async function spendPersonLink(context: OperationContext, purpose: PersonLinkPurpose, secret: string): Promise<string | null> {
  if (!possibleSecret(secret)) return null;
  const now = context.now();
  return context.store.transaction(async (trx) => {
    const spent = await spendStoredLink(trx, hashSecret(secret), purpose, now);
    if (!spent) return null;
    if (spent.memberId !== null) {
      await updateMember(trx, spent.memberId, { status: 'active' });
      const joined = await findMemberListing(trx, spent.memberId);
      if (joined) {
        const actor = { type: 'member' as const, id: joined.member.id, name: displayName(joined.person) };
        await recordAuditAs(trx, context, actor, null, { action: 'member.joined', workspaceId: joined.member.workspace_id, object: { type: 'member', id: joined.member.id } });
      }
    }
    return spent.personId;
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
  await insertPersonLink(db, { idHash: hashSecret(secret), personId: person.id, memberId: null, purpose: 'email', now, expiresAt: now + emailLinkLifetimeMs });
  sendPersonLinkMail(context, { to: person.email, kind: 'sign-in', url: `${context.urls.baseUrl}/login/email/${secret}`, name: displayName(person) });
}

/** The person a session belongs to, with their active memberships; null if they are gone. */
export async function personPrincipal(context: OperationContext, personId: string): Promise<PersonPrincipal | null> {
  const person = await findPersonById(context.store.db, personId);
  if (!person) return null;
  const memberships = await activeMemberships(context.store.db, personId);
  return { kind: 'person', personId, name: displayName(person), email: person.email, memberships };
}
