/**
 * The sign-in stack's tables (docs/settings.md, docs/members.md): one sessions table and one
 * table of one-time links, for tokens and people alike. Only SHA-256 hashes of session ids
 * and link secrets are stored; times are epoch milliseconds.
 */

/** A settings-area session. Its subject is a token (`token_id`) or a person (`person_id`), never both. */
export interface SessionsTable {
  id_hash: string;
  token_id: string | null;
  person_id: string | null;
  /** The one workspace a person's session may see (it began with an invite link the inviter saw); null: all of theirs. */
  workspace_id: string | null;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

/**
 * What a one-time link is for, which is also the route it works at: `open` (`svc open`,
 * `/login/link/…`, a token's), `invite` (`/login/invite/…`, a membership's) and `email`
 * (a sign-in by email, `/login/email/…`, a person's).
 */
export type LinkPurpose = 'open' | 'invite' | 'email';

export interface OneTimeLinksTable {
  id_hash: string;
  purpose: LinkPurpose;
  /** The token an `open` link signs in with. */
  token_id: string | null;
  /** The person an `email` link signs in. */
  person_id: string | null;
  /** The membership an `invite` link activates. */
  member_id: string | null;
  /** 1: an invite link the inviter has seen too (it proves nothing about the address); else 0. */
  shown: number;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}
