import { ServiceError } from '@svc/protocol';
import { findTokenByHash } from '../store/queries/tokens.js';
import type { Db } from '../store/store.js';
import type { LastUsedRecorder } from './last-used.js';
import type { TokenPrincipal } from './principal.js';
import { hashesEqual, hashToken } from './token-secrets.js';

const bearer = /^Bearer[ \t]+([^\s]+)[ \t]*$/i;
const longestToken = 512;

/**
 * Who sends a request: the token in `authorization: Bearer <token>`, looked up by its
 * SHA-256 and compared in constant time. A missing, malformed, unknown or revoked token is
 * `unauthorized`, with one message for all, so nothing is learnt about which.
 */
export class TokenAuthenticator {
  constructor(
    private readonly db: Db,
    private readonly lastUsed: LastUsedRecorder,
    private readonly now: () => number,
  ) {}

  async authenticate(authorization: string | undefined): Promise<TokenPrincipal> {
    if (authorization === undefined || authorization === '') {
      throw new ServiceError('unauthorized', 'no token: send it as `authorization: Bearer <token>`');
    }
    const token = bearer.exec(authorization)?.[1];
    if (token === undefined || token.length > longestToken) {
      throw new ServiceError('unauthorized', 'the authorization header must be `Bearer <token>`');
    }
    return this.authenticateToken(token);
  }

  /** The same check for a token given as it is (the settings area's sign-in form). */
  async authenticateToken(token: string): Promise<TokenPrincipal> {
    if (token.length === 0 || token.length > longestToken) throw new ServiceError('unauthorized', 'the token is unknown or revoked');
    const hash = hashToken(token);
    const row = await findTokenByHash(this.db, hash);
    if (!row || !hashesEqual(row.token_hash, hash) || row.revoked_at !== null) {
      throw new ServiceError('unauthorized', 'the token is unknown or revoked');
    }
    this.lastUsed.touch(row.id, this.now(), row.last_used_at);
    return { kind: 'token', tokenId: row.id, workspaceId: row.workspace_id, name: row.name };
  }
}
