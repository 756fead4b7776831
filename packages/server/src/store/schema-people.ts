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

export type PersonLinkPurpose = 'invite' | 'email';

/** A one-time link of a person (an invite, or a sign-in by email); only the SHA-256 of its secret is stored. */
export interface PersonLinksTable {
  id_hash: string;
  person_id: string;
  /** The membership an invite activates; null for an email sign-in link. */
  member_id: string | null;
  purpose: PersonLinkPurpose;
  /** 1: an invite link the inviter has seen too (it proves nothing about the address); 0: emailed only. */
  shown: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface PersonSessionsTable {
  id_hash: string;
  person_id: string;
  /** The one workspace a session started by a shown invite link may see; null: every membership of the person. */
  workspace_id: string | null;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}
