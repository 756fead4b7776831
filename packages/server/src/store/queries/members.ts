import type { Membership } from '../../auth/principal.js';
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

export async function setPersonName(db: Db, personId: string, name: string | null): Promise<void> {
  await db.updateTable('people').set({ name }).where('id', '=', personId).execute();
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
    .select(['people.email', 'people.name', 'people.created_at as person_created_at', 'workspaces.slug as workspace_slug']);
}

type ListingRow = MemberRow & { email: string; name: string | null; person_created_at: number; workspace_slug: string };

function toListing(row: ListingRow): MemberListing {
  const { email, name, person_created_at, workspace_slug, ...member } = row;
  return {
    member: { ...member, created_at: Number(member.created_at) },
    person: { id: member.person_id, email, name, created_at: Number(person_created_at) },
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

/** The active memberships of a person: what their session may see. */
export async function activeMemberships(db: Db, personId: string): Promise<Membership[]> {
  const rows = await db
    .selectFrom('members')
    .select(['id', 'workspace_id', 'role'])
    .where('person_id', '=', personId)
    .where('status', '=', 'active')
    .execute();
  return rows.map((row) => ({ memberId: row.id, workspaceId: row.workspace_id, role: row.role }));
}

export async function updateMember(db: Db, memberId: string, changes: { role?: MemberRoleText; status?: MemberStatusText }): Promise<void> {
  await db.updateTable('members').set(changes).where('id', '=', memberId).execute();
}

export async function deleteMember(db: Db, memberId: string): Promise<void> {
  await db.deleteFrom('members').where('id', '=', memberId).execute();
}
