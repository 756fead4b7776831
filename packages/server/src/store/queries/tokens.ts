import { newId } from '../../ids.js';
import type { TokenRow } from '../schema.js';
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
