import type { FastifyRequest } from 'fastify';
import type { EmailLinkLimit } from '../auth/email-link-limit.js';
import type { FailedAuthentications } from '../auth/failed-authentications.js';
import type { TokenAuthenticator } from '../auth/token-authenticator.js';
import type { OperationContext } from '../operations/context.js';
import type { SettingsAssets } from './assets.js';
import type { Session } from './session/session-store.js';
import type { PageFrame } from './views/layout.js';

export interface SettingsDependencies {
  readonly context: OperationContext;
  readonly assets: SettingsAssets;
  readonly authenticator: TokenAuthenticator;
  /** Failed sign-ins count with the CLI API's failed authentications, per client address. */
  readonly failures: FailedAuthentications;
  /** How often one address may be emailed a sign-in link. */
  readonly emailLinks: EmailLinkLimit;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The settings-area session, set for every `/settings` page. */
    session: Session | null;
    /** The request carried more than one session cookie, so it has no session (docs/settings.md). */
    severalSessionCookies: boolean;
  }
}

/** Everything a page handler needs, resolved once per request. */
export interface SettingsRequestTools {
  readonly dependencies: SettingsDependencies;
  frame(request: FastifyRequest): PageFrame;
  /** The signed-in session; pages under `/settings` always have one. */
  session(request: FastifyRequest): Session;
}
