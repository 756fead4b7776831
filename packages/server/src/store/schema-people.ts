/** Tables of people (docs/members.md); times are epoch milliseconds. */

export interface PeopleTable {
  id: string;
  /** Lowercased; one person per address. */
  email: string;
  created_at: number;
}

export type MemberRoleText = 'owner' | 'member';
export type MemberStatusText = 'invited' | 'active';

export interface MembersTable {
  id: string;
  person_id: string;
  workspace_id: string;
  role: MemberRoleText;
  status: MemberStatusText;
  /** Their name in this workspace: given at the invite, or set by them; null shows their email before `@`. */
  name: string | null;
  created_at: number;
}
