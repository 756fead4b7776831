import type { Db } from '../store.js';
import type { LinkPurpose } from '../schema-sign-in.js';

export type { LinkPurpose } from '../schema-sign-in.js';

/** A new one-time link: a token's (`open`), a membership's (`invite`) or a person's (`email`). */
export interface NewLink {
  readonly idHash: string;
  readonly purpose: LinkPurpose;
  readonly tokenId?: string;
  readonly personId?: string;
  readonly memberId?: string;
  /** An invite link the inviter sees too. */
  readonly shown?: boolean;
  readonly now: number;
  readonly expiresAt: number;
}

export async function insertLink(db: Db, link: NewLink): Promise<void> {
  await db
    .insertInto('one_time_links')
    .values({
      id_hash: link.idHash,
      purpose: link.purpose,
      token_id: link.tokenId ?? null,
      person_id: link.personId ?? null,
      member_id: link.memberId ?? null,
      shown: link.shown === true ? 1 : 0,
      created_at: link.now,
      expires_at: link.expiresAt,
      used_at: null,
    })
    .execute();
}

/** An unspent, unexpired link with whom it would sign in. */
export interface UsableLink {
  readonly purpose: LinkPurpose;
  readonly shown: boolean;
  readonly expiresAt: number;
  /** An `open` link's token (live), its name and its workspace's slug (null: an admin token). */
  readonly token: { readonly id: string; readonly name: string; readonly workspaceSlug: string | null } | null;
  /** The person an `invite` or `email` link signs in. */
  readonly person: { readonly id: string; readonly email: string } | null;
  /** The membership an `invite` link activates: its name there (null: none given) and its workspace. */
  readonly member: { readonly id: string; readonly name: string | null; readonly workspaceId: string; readonly workspaceSlug: string } | null;
}

/** Who an unspent, unexpired link signs in, without spending it; a token's link only while the token is live. */
export async function findUsableLink(db: Db, idHash: string, now: number): Promise<UsableLink | undefined> {
  const row = await db
    .selectFrom('one_time_links')
    .leftJoin('tokens', 'tokens.id', 'one_time_links.token_id')
    .leftJoin('workspaces as token_workspaces', 'token_workspaces.id', 'tokens.workspace_id')
    .leftJoin('members', 'members.id', 'one_time_links.member_id')
    .leftJoin('workspaces as member_workspaces', 'member_workspaces.id', 'members.workspace_id')
    .leftJoin('people', (join) => join.on((eb) => eb('people.id', '=', eb.fn.coalesce('one_time_links.person_id', 'members.person_id'))))
    .select(['one_time_links.purpose', 'one_time_links.shown', 'one_time_links.expires_at', 'one_time_links.token_id', 'one_time_links.member_id'])
    .select(['tokens.name as token_name', 'tokens.revoked_at', 'token_workspaces.slug as token_workspace_slug'])
    .select(['members.name as member_name', 'members.workspace_id', 'member_workspaces.slug as member_workspace_slug', 'people.id as person_id', 'people.email'])
    .where('one_time_links.id_hash', '=', idHash)
    .where('one_time_links.used_at', 'is', null)
    .where('one_time_links.expires_at', '>', now)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.token_id !== null && (row.token_name === null || row.revoked_at !== null)) return undefined;
  return {
    purpose: row.purpose,
    shown: Number(row.shown) === 1,
    expiresAt: Number(row.expires_at),
    token: row.token_id !== null && row.token_name !== null ? { id: row.token_id, name: row.token_name, workspaceSlug: row.token_workspace_slug } : null,
    person: row.person_id !== null && row.email !== null ? { id: row.person_id, email: row.email } : null,
    member:
      row.member_id !== null && row.workspace_id !== null && row.member_workspace_slug !== null
        ? { id: row.member_id, name: row.member_name, workspaceId: row.workspace_id, workspaceSlug: row.member_workspace_slug }
        : null,
  };
}

/**
 * Spends a link of the given purpose: marks it used if it is unused, unexpired and (for a
 * token's) its token is live, in one statement, so two concurrent openings cannot both
 * succeed. A link of another purpose is left as it is. True when this call spent it.
 */
export async function spendLink(db: Db, idHash: string, purpose: LinkPurpose, now: number): Promise<boolean> {
  const spent = await db
    .updateTable('one_time_links')
    .set({ used_at: now })
    .where('id_hash', '=', idHash)
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .where((eb) =>
      eb.or([
        eb('one_time_links.token_id', 'is', null),
        eb.exists(eb.selectFrom('tokens').select('tokens.id').whereRef('tokens.id', '=', 'one_time_links.token_id').where('tokens.revoked_at', 'is', null)),
      ]),
    )
    .executeTakeFirst();
  return Number(spent.numUpdatedRows) === 1;
}

/** Invalidates a membership's invite links: a new invite replaces them, and spending one spends the others. */
export async function deleteLinksOfMember(db: Db, memberId: string): Promise<void> {
  await db.deleteFrom('one_time_links').where('member_id', '=', memberId).execute();
}
