import type { Store } from '../store/store.js';
import { countTokens, findTokenByHash, insertToken } from '../store/queries/tokens.js';
import { generateToken, hashToken } from './token-secrets.js';

/**
 * docs/server.md: with SVC_BOOTSTRAP_TOKEN, make sure an admin token with that value exists;
 * without it, a first start on an empty store creates one admin token. Returns the new
 * token's value when one was generated (to be shown once), else null.
 */
export async function ensureBootstrapToken(store: Store, bootstrapToken: string | undefined): Promise<string | null> {
  if (bootstrapToken !== undefined && bootstrapToken !== '') {
    const tokenHash = hashToken(bootstrapToken);
    await store.transaction(async (trx) => {
      if (await findTokenByHash(trx, tokenHash)) return;
      await insertToken(trx, { name: 'bootstrap', tokenHash, workspaceId: null });
    });
    return null;
  }
  return store.transaction(async (trx) => {
    if ((await countTokens(trx)) > 0) return null;
    const token = generateToken();
    await insertToken(trx, { name: 'admin', tokenHash: hashToken(token), workspaceId: null });
    return token;
  });
}
