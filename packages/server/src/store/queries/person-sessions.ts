import type { Db } from '../store.js';
import type { PersonLinkPurpose } from '../schema-people.js';

/** A person's one-time links (invites, sign-in by email) and their settings-area sessions (docs/members.md). */

export async function insertPersonLink(
  db: Db,
  link: { idHash: string; personId: string; memberId: string | null; purpose: PersonLinkPurpose; shown: boolean; now: number; expiresAt: number },
): Promise<void> {
  await db
    .insertInto('person_links')
    .values({
      id_hash: link.idHash,
      person_id: link.personId,
      member_id: link.memberId,
      purpose: link.purpose,
      shown: link.shown ? 1 : 0,
      created_at: link.now,
      expires_at: link.expiresAt,
      used_at: null,
    })
    .execute();
}

/** Invalidates a membership's invite links: a new invite replaces them, and spending one spends the others. */
export async function deleteInviteLinks(db: Db, memberId: string): Promise<void> {
  await db.deleteFrom('person_links').where('member_id', '=', memberId).execute();
}

export interface PersonLinkHolder {
  readonly personId: string;
  readonly memberId: string | null;
  readonly purpose: PersonLinkPurpose;
  /** An invite link the inviter has seen too. */
  readonly shown: boolean;
  readonly email: string;
  /** The name the invite gives them; null for an email sign-in link or an invite without one. */
  readonly name: string | null;
  /** The workspace an invite is to; null for an email sign-in link. */
  readonly workspaceId: string | null;
  readonly workspaceSlug: string | null;
  readonly expiresAt: number;
}

/** Who an unspent, unexpired link signs in, without spending it. */
export async function findUsablePersonLink(db: Db, idHash: string, now: number): Promise<PersonLinkHolder | undefined> {
  const row = await db
    .selectFrom('person_links')
    .innerJoin('people', 'people.id', 'person_links.person_id')
    .leftJoin('members', 'members.id', 'person_links.member_id')
    .leftJoin('workspaces', 'workspaces.id', 'members.workspace_id')
    .select([
      'person_links.person_id',
      'person_links.member_id',
      'person_links.purpose',
      'person_links.shown',
      'person_links.expires_at',
      'people.email',
      'members.name',
      'members.workspace_id',
      'workspaces.slug',
    ])
    .where('person_links.id_hash', '=', idHash)
    .where('person_links.used_at', 'is', null)
    .where('person_links.expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    personId: row.person_id,
    memberId: row.member_id,
    purpose: row.purpose,
    shown: Number(row.shown) === 1,
    email: row.email,
    name: row.name,
    workspaceId: row.workspace_id,
    workspaceSlug: row.slug,
    expiresAt: Number(row.expires_at),
  };
}

/**
 * Spends a link of the given purpose: marks it used if it is unused and unexpired, in one
 * statement, so two concurrent openings cannot both succeed. A link of another purpose is
 * left as it is. Returns whom it signs in.
 */
export async function spendPersonLink(
  db: Db,
  idHash: string,
  purpose: PersonLinkPurpose,
  now: number,
): Promise<{ personId: string; memberId: string | null; shown: boolean } | undefined> {
  const row = await db
    .updateTable('person_links')
    .set({ used_at: now })
    .where('id_hash', '=', idHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['person_id', 'member_id', 'shown'])
    .executeTakeFirst();
  return row ? { personId: row.person_id, memberId: row.member_id, shown: Number(row.shown) === 1 } : undefined;
}

/** `workspaceId`: the one workspace the session may see (started by a shown invite link); null: all of the person's. */
export async function insertPersonSession(db: Db, session: { idHash: string; personId: string; workspaceId: string | null; now: number; expiresAt: number }): Promise<void> {
  await db
    .insertInto('person_sessions')
    .values({
      id_hash: session.idHash,
      person_id: session.personId,
      workspace_id: session.workspaceId,
      created_at: session.now,
      last_seen_at: session.now,
      expires_at: session.expiresAt,
    })
    .execute();
}

export interface PersonSessionRecord {
  readonly personId: string;
  readonly workspaceId: string | null;
  readonly lastSeenAt: number;
  readonly expiresAt: number;
}

export async function findPersonSession(db: Db, idHash: string): Promise<PersonSessionRecord | undefined> {
  const row = await db.selectFrom('person_sessions').select(['person_id', 'workspace_id', 'last_seen_at', 'expires_at']).where('id_hash', '=', idHash).executeTakeFirst();
  return row ? { personId: row.person_id, workspaceId: row.workspace_id, lastSeenAt: Number(row.last_seen_at), expiresAt: Number(row.expires_at) } : undefined;
}

export async function touchPersonSession(db: Db, idHash: string, now: number): Promise<void> {
  await db.updateTable('person_sessions').set({ last_seen_at: now }).where('id_hash', '=', idHash).execute();
}

export async function deletePersonSession(db: Db, idHash: string): Promise<void> {
  await db.deleteFrom('person_sessions').where('id_hash', '=', idHash).execute();
}

/** Ends the person's sessions that could see only this workspace (their other sessions stay). */
export async function deleteSessionsLimitedTo(db: Db, personId: string, workspaceId: string): Promise<void> {
  await db.deleteFrom('person_sessions').where('person_id', '=', personId).where('workspace_id', '=', workspaceId).execute();
}

/** Removes person sessions past their hard expiry or idle past `idleBefore`, and spent or expired links. */
export async function deleteExpiredPersonSessions(db: Db, now: number, idleBefore: number): Promise<number> {
  const sessions = await db
    .deleteFrom('person_sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<', idleBefore)]))
    .executeTakeFirst();
  const links = await db
    .deleteFrom('person_links')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('used_at', 'is not', null)]))
    .executeTakeFirst();
  return Number(sessions.numDeletedRows) + Number(links.numDeletedRows);
}
