import type { Db } from '../store.js';

export interface SessionRecord {
  readonly idHash: string;
  readonly tokenId: string;
  readonly workspaceId: string | null;
  /** The token's `--name`: what the session's replies and audit entries are signed with. */
  readonly tokenName: string;
  readonly createdAt: number;
  readonly lastSeenAt: number;
  readonly expiresAt: number;
}

export async function insertSession(db: Db, session: { idHash: string; tokenId: string; now: number; expiresAt: number }): Promise<void> {
  await db
    .insertInto('sessions')
    .values({ id_hash: session.idHash, token_id: session.tokenId, created_at: session.now, last_seen_at: session.now, expires_at: session.expiresAt })
    .execute();
}

/** The session with its token's scope, only while the token is not revoked. */
export async function findLiveSession(db: Db, idHash: string): Promise<SessionRecord | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('tokens', 'tokens.id', 'sessions.token_id')
    .select(['sessions.id_hash', 'sessions.token_id', 'tokens.workspace_id', 'tokens.name', 'sessions.created_at', 'sessions.last_seen_at', 'sessions.expires_at'])
    .where('sessions.id_hash', '=', idHash)
    .where('tokens.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    idHash: row.id_hash,
    tokenId: row.token_id,
    workspaceId: row.workspace_id,
    tokenName: row.name,
    createdAt: Number(row.created_at),
    lastSeenAt: Number(row.last_seen_at),
    expiresAt: Number(row.expires_at),
  };
}

export async function touchSession(db: Db, idHash: string, now: number): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now }).where('id_hash', '=', idHash).execute();
}

export async function deleteSession(db: Db, idHash: string): Promise<void> {
  await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
}

export async function deleteSessionsOfToken(db: Db, tokenId: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_id', '=', tokenId).execute();
}

/** Removes sessions past their hard expiry or idle past `idleBefore`, and spent or expired sign-in links. */
export async function deleteExpiredSessions(db: Db, now: number, idleBefore: number): Promise<number> {
  const sessions = await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<', idleBefore)]))
    .executeTakeFirst();
  const links = await db
    .deleteFrom('sign_in_links')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('used_at', 'is not', null)]))
    .executeTakeFirst();
  return Number(sessions.numDeletedRows) + Number(links.numDeletedRows);
}

export async function insertSignInLink(db: Db, link: { idHash: string; tokenId: string; now: number; expiresAt: number }): Promise<void> {
  await db
    .insertInto('sign_in_links')
    .values({ id_hash: link.idHash, token_id: link.tokenId, created_at: link.now, expires_at: link.expiresAt, used_at: null })
    .execute();
}

/** Who an unspent, unexpired sign-in link of a live token signs in as; it is not spent. */
export async function findUsableSignInLink(db: Db, idHash: string, now: number): Promise<{ tokenName: string; workspaceSlug: string | null; expiresAt: number } | undefined> {
  const row = await db
    .selectFrom('sign_in_links')
    .innerJoin('tokens', 'tokens.id', 'sign_in_links.token_id')
    .leftJoin('workspaces', 'workspaces.id', 'tokens.workspace_id')
    .select(['tokens.name', 'workspaces.slug', 'sign_in_links.expires_at'])
    .where('sign_in_links.id_hash', '=', idHash)
    .where('sign_in_links.used_at', 'is', null)
    .where('sign_in_links.expires_at', '>', now)
    .where('tokens.revoked_at', 'is', null)
    .executeTakeFirst();
  return row ? { tokenName: row.name, workspaceSlug: row.slug, expiresAt: Number(row.expires_at) } : undefined;
}

/**
 * Spends a sign-in link: marks it used if it is unused, unexpired and its token is live, in
 * one statement, so two concurrent openings cannot both succeed. Returns its token id.
 */
export async function spendSignInLink(db: Db, idHash: string, now: number): Promise<string | undefined> {
  const row = await db
    .updateTable('sign_in_links')
    .set({ used_at: now })
    .where('id_hash', '=', idHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where((eb) => eb.exists(eb.selectFrom('tokens').select('tokens.id').whereRef('tokens.id', '=', 'sign_in_links.token_id').where('tokens.revoked_at', 'is', null)))
    .returning('token_id')
    .executeTakeFirst();
  return row?.token_id;
}
