import { Type, type Static } from 'typebox';
import { Closed, Id, NullableString, NullableTimestamp, Ok, Slug, Timestamp } from './common.js';
import { tokenNameLimit } from './limits.js';

/**
 * CLI tokens. A token is shown once, when it is created (`secret`); afterwards only its
 * metadata. `workspace` null marks an admin token: every workspace, and token management.
 */
export const TokenInfo = Closed({
  id: Type.String(),
  name: Type.String(),
  workspace: NullableString,
  createdAt: Timestamp,
  lastUsedAt: NullableTimestamp,
  revokedAt: NullableTimestamp,
});
export type TokenInfo = Static<typeof TokenInfo>;

/** `GET /api/cli/token`: the token making the request (what `svc login` checks). */
export const WhoamiResponse = Closed({
  ok: Ok,
  token: Closed({
    id: Type.String(),
    name: Type.String(),
    workspace: NullableString,
    admin: Type.Boolean(),
  }),
});
export type WhoamiResponse = Static<typeof WhoamiResponse>;

/** `POST /api/cli/tokens` (admin only). */
export const CreateTokenRequest = Closed({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: tokenNameLimit })),
  /** Scope the token to this workspace, which must exist. Exactly one of `workspace` and `admin: true`. */
  workspace: Type.Optional(Slug),
  /** A server-wide admin token: every workspace, token management. */
  admin: Type.Optional(Type.Boolean()),
});
export type CreateTokenRequest = Static<typeof CreateTokenRequest>;

export const CreateTokenResponse = Closed({
  ok: Ok,
  token: TokenInfo,
  /** The token itself: shown this once, never stored in clear. */
  secret: Type.String(),
});
export type CreateTokenResponse = Static<typeof CreateTokenResponse>;

/** `GET /api/cli/tokens` (admin only): every token, newest first, revoked ones included. */
export const ListTokensResponse = Closed({ ok: Ok, tokens: Type.Array(TokenInfo) });
export type ListTokensResponse = Static<typeof ListTokensResponse>;

export const TokenParams = Type.Object({ id: Id });

/** `POST /api/cli/tokens/:id/revoke` (admin only). Revoking a revoked token changes nothing. */
export const RevokeTokenResponse = Closed({ ok: Ok, token: TokenInfo });
export type RevokeTokenResponse = Static<typeof RevokeTokenResponse>;

/** `POST /api/cli/sign-in-links` (`svc open`): a one-time link to the settings area, valid 5 minutes. */
export const SignInLinkResponse = Closed({ ok: Ok, url: Type.String() });
export type SignInLinkResponse = Static<typeof SignInLinkResponse>;
