import { hashToken as hashSecret } from '../auth/token-secrets.js';
import { randomToken } from '../lib/ids.js';
import { findUsableLink, insertLink, spendLink as spendStoredLink, type LinkPurpose, type UsableLink } from '../store/queries/one-time-links.js';
import type { SessionSubject } from '../store/queries/sessions.js';
import type { OperationContext, Principal } from './context.js';
import { memberName } from './member-info.js';
import { joinByInvite, linkReach, type LinkReach } from './person-sign-in.js';
import { emailName, requireToken } from './rights.js';

export type { LinkPurpose } from '../store/queries/one-time-links.js';
export type { SessionSubject } from '../store/queries/sessions.js';

/**
 * One-time sign-in links, whatever they are for (docs/settings.md, docs/members.md): a
 * link's purpose is also the one route it works at (`open` at `/login/link/…`, `invite` at
 * `/login/invite/…`, `email` at `/login/email/…`). Opening one only describes it; pressing
 * Sign in spends it and names the session's subject.
 */

/** A sign-in link made by `svc open` works once, for 5 minutes (docs/settings.md). */
export const signInLinkLifetimeMs = 5 * 60 * 1000;

export interface SignInLink {
  readonly url: string;
  readonly expiresAt: string;
}

/** `svc open`: a one-time link that starts a settings session with the caller's token. */
export async function createSignInLink(context: OperationContext, principal: Principal): Promise<SignInLink> {
  const secret = randomToken(256);
  const now = context.now();
  const expiresAt = now + signInLinkLifetimeMs;
  await insertLink(context.store.db, { idHash: hashSecret(secret), purpose: 'open', tokenId: requireToken(principal).tokenId, now, expiresAt });
  return { url: `${context.urls.baseUrl}/login/link/${secret}`, expiresAt: new Date(expiresAt).toISOString() };
}

/** Whom a usable link signs in, shown on its page before the button. */
export type LinkHolder =
  | {
      readonly purpose: 'open';
      readonly tokenName: string;
      /** The token's workspace; null: an admin token. */
      readonly workspace: string | null;
      readonly expiresAt: string;
    }
  | {
      readonly purpose: 'invite' | 'email';
      readonly name: string;
      readonly email: string;
      /** The workspace of an invite; null for an email sign-in link. */
      readonly workspace: string | null;
      readonly expiresAt: string;
      readonly reach: LinkReach;
    };

function possibleSecret(secret: string): boolean {
  return secret.length > 0 && secret.length <= 128;
}

/** The usable link with this secret and purpose; undefined if unknown, used, expired, of another purpose or its token revoked. */
async function usableLink(context: OperationContext, purpose: LinkPurpose, secret: string, db = context.store.db): Promise<UsableLink | undefined> {
  if (!possibleSecret(secret)) return undefined;
  const found = await findUsableLink(db, hashSecret(secret), context.now());
  return found?.purpose === purpose ? found : undefined;
}

/** Who a link of the given purpose would sign in, without spending it (opening a link only shows this), or null. */
export async function describeLink(context: OperationContext, purpose: LinkPurpose, secret: string): Promise<LinkHolder | null> {
  const found = await usableLink(context, purpose, secret);
  if (!found) return null;
  const expiresAt = new Date(found.expiresAt).toISOString();
  if (found.purpose === 'open') return found.token ? { purpose: 'open', tokenName: found.token.name, workspace: found.token.workspaceSlug, expiresAt } : null;
  if (!found.person) return null;
  const name = found.member ? memberName(found.member.name, found.person.email) : emailName(found.person.email);
  return { purpose: found.purpose, name, email: found.person.email, workspace: found.member?.workspaceSlug ?? null, expiresAt, reach: await linkReach(context.store.db, found) };
}

/**
 * Spends a link of the given purpose (an invite link is no sign-in link, nor the other way
 * round) and names whom the session it starts signs in: its token, or its person (limited
 * to the invite's workspace for a link the inviter saw). An invite also makes its
 * membership `active`, in the same transaction. Null if the link is unknown, used, expired,
 * of another purpose or its token revoked; `refused` for an invite link the inviter saw of
 * a person who belongs to another workspace. Either way it is left unspent.
 */
export async function spendLink(context: OperationContext, purpose: LinkPurpose, secret: string): Promise<SessionSubject | 'refused' | null> {
  if (!possibleSecret(secret)) return null;
  const idHash = hashSecret(secret);
  return context.store.transaction(async (trx) => {
    const found = await usableLink(context, purpose, secret, trx);
    if (!found) return null;
    if (found.purpose === 'open') {
      if (!found.token || !(await spendStoredLink(trx, idHash, purpose, context.now()))) return null;
      return { kind: 'token', tokenId: found.token.id };
    }
    if (!found.person) return null;
    const reach = await linkReach(trx, found);
    if (reach === 'refused') return 'refused';
    if (!(await spendStoredLink(trx, idHash, purpose, context.now()))) return null;
    if (found.member) await joinByInvite(trx, context, found.member.id);
    return { kind: 'person', personId: found.person.id, limitedTo: reach === 'workspace' ? (found.member?.workspaceId ?? null) : null };
  });
}
