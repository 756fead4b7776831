import { newId } from '../../lib/ids.js';
import type { TokenRow } from '../schema.js';
import type { BackendCapabilities } from '../capabilities.js';
import type { Db } from '../store.js';

export interface NewToken {
  name: string;
  tokenHash: string;
  /** null for an admin token (every workspace, may manage tokens). */
  workspaceId: string | null;
}

export async function insertToken(db: Db, token: NewToken, now = Date.now()): Promise<TokenRow> {
  const row: TokenRow = {
    id: newId('tok', now),
    name: token.name,
    token_hash: token.tokenHash,
    workspace_id: token.workspaceId,
    created_at: now,
    last_used_at: null,
    revoked_at: null,
  };
  await db.insertInto('tokens').values(row).execute();
  return row;
}

export async function findTokenByHash(db: Db, tokenHash: string): Promise<TokenRow | undefined> {
  return db.selectFrom('tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export async function countTokens(db: Db): Promise<number> {
  const row = await db.selectFrom('tokens').select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
  return Number(row.count);
}

export interface TokenListing {
  token: TokenRow;
  workspaceSlug: string | null;
}

/** The tokens of these workspaces (null: every token, admin tokens included), newest first. */
export async function listTokens(db: Db, workspaceIds: readonly string[] | null = null): Promise<TokenListing[]> {
  if (workspaceIds !== null && workspaceIds.length === 0) return [];
  let query = db
    .selectFrom('tokens')
    .leftJoin('workspaces', 'workspaces.id', 'tokens.workspace_id')
    .selectAll('tokens')
    .select('workspaces.slug as workspace_slug')
    .orderBy('tokens.id', 'desc');
  if (workspaceIds !== null) query = query.where('tokens.workspace_id', 'in', workspaceIds);
  const rows = await query.execute();
  return rows.map(({ workspace_slug, ...token }) => ({ token, workspaceSlug: workspace_slug }));
}

export async function findTokenListing(db: Db, id: string): Promise<TokenListing | undefined> {
  const row = await db
    .selectFrom('tokens')
    .leftJoin('workspaces', 'workspaces.id', 'tokens.workspace_id')
    .selectAll('tokens')
    .select('workspaces.slug as workspace_slug')
    .where('tokens.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { workspace_slug, ...token } = row;
  return { token, workspaceSlug: workspace_slug };
}

export async function revokeToken(db: Db, id: string, now = Date.now()): Promise<void> {
  await db.updateTable('tokens').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

/**
 * Admin tokens (no workspace) that are not revoked, locked until the transaction ends where
 * the backend locks rows: two revocations at once then count one after the other, and the
 * second sees the first (SQLite runs write transactions one at a time anyway).
 */
export async function countActiveAdminTokens(db: Db, capabilities: Pick<BackendCapabilities, 'rowLocks'>): Promise<number> {
  let query = db.selectFrom('tokens').select('id').where('workspace_id', 'is', null).where('revoked_at', 'is', null);
  if (capabilities.rowLocks) query = query.forUpdate();
  return (await query.execute()).length;
}

/** Records that tokens were used at `at`, never moving a later time back. */
export async function recordTokensUsed(db: Db, ids: readonly string[], at: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('tokens')
    .set({ last_used_at: at })
    .where('id', 'in', ids)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
    .execute();
}
