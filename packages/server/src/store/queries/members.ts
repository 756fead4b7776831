import type { BackendCapabilities } from '../capabilities.js';
import type { Db } from '../store.js';
import type { MemberRoleText, MembersTable, MemberStatusText, PeopleTable } from '../schema-people.js';

export type PersonRow = PeopleTable;
export type MemberRow = MembersTable;

/** A member with who they are and the slug of their workspace. */
export interface MemberListing {
  readonly member: MemberRow;
  readonly person: PersonRow;
  readonly workspaceSlug: string;
}

export async function findPersonByEmail(db: Db, email: string): Promise<PersonRow | undefined> {
  return db.selectFrom('people').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function findPersonById(db: Db, id: string): Promise<PersonRow | undefined> {
  return db.selectFrom('people').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertPerson(db: Db, person: PersonRow): Promise<void> {
  await db.insertInto('people').values(person).execute();
}

export async function insertMember(db: Db, member: MemberRow): Promise<void> {
  await db.insertInto('members').values(member).execute();
}

export async function findMemberOf(db: Db, workspaceId: string, personId: string): Promise<MemberRow | undefined> {
  return db.selectFrom('members').selectAll().where('workspace_id', '=', workspaceId).where('person_id', '=', personId).executeTakeFirst();
}

function memberListingQuery(db: Db) {
  return db
    .selectFrom('members')
    .innerJoin('people', 'people.id', 'members.person_id')
    .innerJoin('workspaces', 'workspaces.id', 'members.workspace_id')
    .selectAll('members')
    .select(['people.email', 'people.created_at as person_created_at', 'workspaces.slug as workspace_slug']);
}

type ListingRow = MemberRow & { email: string; person_created_at: number; workspace_slug: string };

function toListing(row: ListingRow): MemberListing {
  const { email, person_created_at, workspace_slug, ...member } = row;
  return {
    member: { ...member, created_at: Number(member.created_at) },
    person: { id: member.person_id, email, created_at: Number(person_created_at) },
    workspaceSlug: workspace_slug,
  };
}

export async function findMemberListing(db: Db, memberId: string): Promise<MemberListing | undefined> {
  const row = await memberListingQuery(db).where('members.id', '=', memberId).executeTakeFirst();
  return row ? toListing(row) : undefined;
}

/** The members of these workspaces (null: of every workspace), by workspace then email. */
export async function listMembers(db: Db, workspaceIds: readonly string[] | null): Promise<MemberListing[]> {
  let query = memberListingQuery(db).orderBy('workspaces.slug').orderBy('people.email');
  if (workspaceIds !== null) {
    if (workspaceIds.length === 0) return [];
    query = query.where('members.workspace_id', 'in', workspaceIds);
  }
  return (await query.execute()).map(toListing);
}

/** Every membership of a person, active or invited, with its workspace's slug. */
export async function membershipsOfPerson(db: Db, personId: string): Promise<MemberListing[]> {
  return (await memberListingQuery(db).where('members.person_id', '=', personId).orderBy('workspaces.slug').execute()).map(toListing);
}

/** An active membership: a workspace the person may see, their role and the name they have there (null: none set). */
export interface ActiveMembership {
  readonly memberId: string;
  readonly workspaceId: string;
  readonly role: MemberRoleText;
  readonly name: string | null;
}

/** The active memberships of a person: what their session may see. */
export async function activeMemberships(db: Db, personId: string): Promise<ActiveMembership[]> {
  const rows = await db
    .selectFrom('members')
    .select(['id', 'workspace_id', 'role', 'name'])
    .where('person_id', '=', personId)
    .where('status', '=', 'active')
    .execute();
  return rows.map((row) => ({ memberId: row.id, workspaceId: row.workspace_id, role: row.role, name: row.name }));
}

export async function updateMember(db: Db, memberId: string, changes: { role?: MemberRoleText; status?: MemberStatusText; name?: string | null }): Promise<void> {
  await db.updateTable('members').set(changes).where('id', '=', memberId).execute();
}

/**
 * The ids of the workspace's active owners, locked until the transaction ends where the
 * backend locks rows: two owners demoting each other at once count one after the other, and
 * the second sees the first (SQLite runs write transactions one at a time anyway).
 */
export async function activeOwnerIds(db: Db, capabilities: Pick<BackendCapabilities, 'rowLocks'>, workspaceId: string): Promise<string[]> {
  let query = db.selectFrom('members').select('id').where('workspace_id', '=', workspaceId).where('role', '=', 'owner').where('status', '=', 'active');
  if (capabilities.rowLocks) query = query.forUpdate();
  return (await query.execute()).map((row) => row.id);
}

export async function deleteMember(db: Db, memberId: string): Promise<void> {
  await db.deleteFrom('members').where('id', '=', memberId).execute();
}
