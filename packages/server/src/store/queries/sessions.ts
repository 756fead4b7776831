import type { Db } from '../store.js';

/** Whom a settings-area session signs in: a token, or a person (limited to one workspace, or not). */
export type SessionSubject = { readonly kind: 'token'; readonly tokenId: string } | { readonly kind: 'person'; readonly personId: string; readonly limitedTo: string | null };

/** A live session's subject, with what the page needs of it: a token's scope and name, a person's address. */
export type LiveSubject =
  | { readonly kind: 'token'; readonly tokenId: string; readonly workspaceId: string | null; readonly tokenName: string }
  | { readonly kind: 'person'; readonly personId: string; readonly limitedTo: string | null; readonly email: string };

export interface LiveSession {
  readonly subject: LiveSubject;
  readonly lastSeenAt: number;
  readonly expiresAt: number;
}

export async function insertSession(db: Db, session: { idHash: string; subject: SessionSubject; now: number; expiresAt: number }): Promise<void> {
  const { subject } = session;
  await db
    .insertInto('sessions')
    .values({
      id_hash: session.idHash,
      token_id: subject.kind === 'token' ? subject.tokenId : null,
      person_id: subject.kind === 'person' ? subject.personId : null,
      workspace_id: subject.kind === 'person' ? subject.limitedTo : null,
      created_at: session.now,
      last_seen_at: session.now,
      expires_at: session.expiresAt,
    })
    .execute();
}

/** The session and whom it signs in, in one query; a token's session only while the token is not revoked. */
export async function findLiveSession(db: Db, idHash: string): Promise<LiveSession | undefined> {
  const row = await db
    .selectFrom('sessions')
    .leftJoin('tokens', 'tokens.id', 'sessions.token_id')
    .leftJoin('people', 'people.id', 'sessions.person_id')
    .select(['sessions.token_id', 'sessions.person_id', 'sessions.workspace_id', 'sessions.last_seen_at', 'sessions.expires_at'])
    .select(['tokens.workspace_id as token_workspace_id', 'tokens.name as token_name', 'tokens.revoked_at', 'people.email'])
    .where('sessions.id_hash', '=', idHash)
    .executeTakeFirst();
  if (!row) return undefined;
  let subject: LiveSubject;
  if (row.token_id !== null && row.token_name !== null && row.revoked_at === null) {
    subject = { kind: 'token', tokenId: row.token_id, workspaceId: row.token_workspace_id, tokenName: row.token_name };
  } else if (row.person_id !== null && row.email !== null) {
    subject = { kind: 'person', personId: row.person_id, limitedTo: row.workspace_id, email: row.email };
  } else {
    return undefined;
  }
  return { subject, lastSeenAt: Number(row.last_seen_at), expiresAt: Number(row.expires_at) };
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

/** Ends the person's sessions that could see only this workspace (their other sessions stay). */
export async function deleteSessionsLimitedTo(db: Db, personId: string, workspaceId: string): Promise<void> {
  await db.deleteFrom('sessions').where('person_id', '=', personId).where('workspace_id', '=', workspaceId).execute();
}

/** Removes sessions past their hard expiry or idle past `idleBefore`, and spent or expired one-time links. */
export async function deleteExpiredSessions(db: Db, now: number, idleBefore: number): Promise<number> {
  const sessions = await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<', idleBefore)]))
    .executeTakeFirst();
  const links = await db
    .deleteFrom('one_time_links')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('used_at', 'is not', null)]))
    .executeTakeFirst();
  return Number(sessions.numDeletedRows) + Number(links.numDeletedRows);
}
