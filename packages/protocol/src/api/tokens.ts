import { Type, type Static } from 'typebox';
import { Id, NullableTimestamp, Ok, Slug, Timestamp } from './common.js';
import { tokenNameLimit } from './limits.js';

/**
 * CLI tokens. A token is shown once, when it is created (`secret`); afterwards only its
 * metadata. `workspace` null marks an admin token: every workspace, and token management.
 */
export const TokenInfo = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    workspace: Type.Union([Type.String(), Type.Null()]),
    createdAt: Timestamp,
    lastUsedAt: NullableTimestamp,
    revokedAt: NullableTimestamp,
  },
  { additionalProperties: false },
);
export type TokenInfo = Static<typeof TokenInfo>;

/** `GET /api/cli/token`: the token making the request (what `svc login` checks). */
export const WhoamiResponse = Type.Object(
  {
    ok: Ok,
    token: Type.Object(
      {
        id: Type.String(),
        name: Type.String(),
        workspace: Type.Union([Type.String(), Type.Null()]),
        admin: Type.Boolean(),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);
export type WhoamiResponse = Static<typeof WhoamiResponse>;

/** `POST /api/cli/tokens` (admin only). */
export const CreateTokenRequest = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: tokenNameLimit })),
    /** Scope the token to this workspace, which must exist. Exactly one of `workspace` and `admin: true`. */
    workspace: Type.Optional(Slug),
    /** A server-wide admin token: every workspace, token management. */
    admin: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type CreateTokenRequest = Static<typeof CreateTokenRequest>;

export const CreateTokenResponse = Type.Object(
  {
    ok: Ok,
    token: TokenInfo,
    /** The token itself: shown this once, never stored in clear. */
    secret: Type.String(),
  },
  { additionalProperties: false },
);
export type CreateTokenResponse = Static<typeof CreateTokenResponse>;

/** `GET /api/cli/tokens` (admin only): every token, newest first, revoked ones included. */
export const ListTokensResponse = Type.Object({ ok: Ok, tokens: Type.Array(TokenInfo) }, { additionalProperties: false });
export type ListTokensResponse = Static<typeof ListTokensResponse>;

export const TokenParams = Type.Object({ id: Id });

/** `POST /api/cli/tokens/:id/revoke` (admin only). Revoking a revoked token changes nothing. */
export const RevokeTokenResponse = Type.Object({ ok: Ok, token: TokenInfo }, { additionalProperties: false });
export type RevokeTokenResponse = Static<typeof RevokeTokenResponse>;

/** `POST /api/cli/sign-in-links` (`svc open`): a one-time link to the settings area, valid 5 minutes. */
export const SignInLinkResponse = Type.Object({ ok: Ok, url: Type.String() }, { additionalProperties: false });
export type SignInLinkResponse = Static<typeof SignInLinkResponse>;
