import { createHash } from 'node:crypto';
import { hashToken as hashSecret } from '../../auth/token-secrets.js';
import { randomToken } from '../../lib/ids.js';
import type { Principal } from '../../auth/principal.js';
import type { OperationContext } from '../../operations/context.js';
import { recordAudit } from '../../operations/audit-log.js';
import { personPrincipal } from '../../operations/person-sign-in.js';
import { findPersonById } from '../../store/queries/members.js';
import { deleteSession, findLiveSession, insertSession, touchSession, type SessionSubject } from '../../store/queries/sessions.js';
import { findTokenListing } from '../../store/queries/tokens.js';
import type { Db } from '../../store/store.js';

/** How long a session lives (docs/settings.md): 12 hours without a request, 7 days at most. */
export const sessionIdleMs = 12 * 60 * 60 * 1000;
export const sessionMaxMs = 7 * 24 * 60 * 60 * 1000;
/** A session's last-seen time is written at most this often, not on every page. */
const touchEveryMs = 60 * 1000;

export interface Session {
  readonly principal: Principal;
  /** The CSRF token that state-changing requests of this session must carry. */
  readonly csrfToken: string;
}

/**
 * The CSRF token is derived from the session id (a keyed hash), so it needs no storage, is
 * stable for the session's life, and cannot be computed without the cookie.
 */
function csrfTokenOf(sessionId: string): string {
  return createHash('sha256').update(`csrf:${sessionId}`, 'utf8').digest('base64url');
}

/** The principal a new session of this subject acts as; null for a subject that is gone. */
async function subjectPrincipal(db: Db, subject: SessionSubject, ip: string | null): Promise<Principal | null> {
  if (subject.kind === 'token') {
    const listing = await findTokenListing(db, subject.tokenId);
    return listing ? { kind: 'token', tokenId: subject.tokenId, workspaceId: listing.token.workspace_id, name: listing.token.name, ip } : null;
  }
  const person = await findPersonById(db, subject.personId);
  return person ? { ...(await personPrincipal(db, { personId: person.id, email: person.email }, subject.limitedTo)), ip } : null;
}

/**
 * Starts a session of a token or a person (a person's may be limited to one workspace;
 * docs/members.md). The sign-in is recorded in the audit log of the token's workspace, or of
 * each workspace the person's session sees, in the session's transaction.
 */
export async function startSession(context: OperationContext, subject: SessionSubject, ip: string | null = null): Promise<string> {
  const id = randomToken(256);
  const now = context.now();
  await context.store.transaction(async (trx) => {
    await insertSession(trx, { idHash: hashSecret(id), subject, now, expiresAt: now + sessionMaxMs });
    const principal = await subjectPrincipal(trx, subject, ip);
    if (principal === null) return;
    const workspaces = principal.kind === 'person' ? principal.memberships.map((membership) => membership.workspaceId) : [principal.workspaceId];
    for (const workspaceId of workspaces) await recordAudit(trx, context, principal, { action: 'session.started', workspaceId });
  });
  return id;
}

/**
 * The live session with this id, or null when it is unknown, idle too long, expired or its
 * token revoked: one lookup names its subject; a person's memberships are read now, so a
 * removal or a new role counts at once.
 */
export async function resumeSession(context: OperationContext, sessionId: string, ip: string | null = null): Promise<Session | null> {
  if (sessionId.length === 0 || sessionId.length > 128) return null;
  const db = context.store.db;
  const idHash = hashSecret(sessionId);
  const record = await findLiveSession(db, idHash);
  if (!record) return null;
  const now = context.now();
  if (now >= record.expiresAt || now - record.lastSeenAt >= sessionIdleMs) {
    await deleteSession(db, idHash);
    return null;
  }
  if (now - record.lastSeenAt >= touchEveryMs) await touchSession(db, idHash, now);
  const { subject } = record;
  const principal: Principal =
    subject.kind === 'token'
      ? { kind: 'token', tokenId: subject.tokenId, workspaceId: subject.workspaceId, name: subject.tokenName, ip }
      : { ...(await personPrincipal(db, subject, subject.limitedTo)), ip };
  return { principal, csrfToken: csrfTokenOf(sessionId) };
}

export async function endSession(context: OperationContext, sessionId: string): Promise<void> {
  await deleteSession(context.store.db, hashSecret(sessionId));
}
