import type { EmailLinkLimit } from '../auth/email-link-limit.js';
import type { FailedAuthentications } from '../auth/failed-authentications.js';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '@svc/protocol';
import { LastUsedRecorder } from '../auth/last-used.js';
import { TokenAuthenticator } from '../auth/token-authenticator.js';
import { isAdmin, isPerson } from '../auth/principal.js';
import type { OperationContext } from '../operations/context.js';
import { managesAnyTokens } from '../operations/rights.js';
import type { RoutePlugin } from '../http/app.js';
import { setRetryAfter } from '../http/error-replies.js';
import { refuseUnstorableInput } from '../http/storable-input.js';
import { loadSettingsAssets, type SettingsAssets } from './assets.js';
import type { SettingsDependencies, SettingsRequestTools } from './settings-tools.js';
import { authRoutes, severalCookiesParameter } from './routes/auth-routes.js';
import { pageRoutes } from './routes/page-routes.js';
import { sendPage } from './render.js';
import { tokensEqual } from '../lib/constant-time.js';
import { pageSecurityHeaders, sameOrigin } from './security.js';
import { readSessionCookie, sessionCookieFor } from './session/session-cookie.js';
import { resumeSession } from './session/session-store.js';
import { ErrorPage } from './views/login-page.js';

export interface SettingsArea {
  readonly plugin: RoutePlugin;
  /** Writes the token last-used times still pending; call after the HTTP server has closed. */
  close(): Promise<void>;
}

/** Builds the settings area with its own token checker (tokens that sign in count as used). */
export async function createSettingsArea(options: { context: OperationContext; failures: FailedAuthentications; emailLinks: EmailLinkLimit }): Promise<SettingsArea> {
  const { context } = options;
  const lastUsed = new LastUsedRecorder(context.store.db, (error) => context.logger.warn({ err: error }, 'could not record when a token was last used'));
  const authenticator = new TokenAuthenticator(context.store.db, lastUsed, context.now);
  const assets = await loadSettingsAssets();
  const plugin = settingsArea({ context, assets, authenticator, failures: options.failures, emailLinks: options.emailLinks });
  return { plugin, close: () => lastUsed.flush() };
}

/**
 * The settings area (docs/settings.md): server-rendered pages under `/settings` and the
 * sign-in pages, calling the same operations as the CLI API. Sessions are cookies naming a
 * server-side row; every POST must come from our origin and carry the session's CSRF token.
 */
export function settingsArea(dependencies: SettingsDependencies): RoutePlugin {
  const { context, assets } = dependencies;
  const tools: SettingsRequestTools = {
    dependencies,
    frame: (request) => ({
      cssPath: assets.css.path,
      jsPath: assets.js.path,
      now: context.now(),
      ...(request.session ? { csrfToken: request.session.csrfToken, admin: isAdmin(request.session.principal), tokens: managesAnyTokens(request.session.principal), person: isPerson(request.session.principal) } : {}),
    }),
    session: (request) => {
      if (!request.session) throw new ServiceError('unauthorized', 'sign in first');
      return request.session;
    },
  };

  return async (app: FastifyInstance) => {
    await app.register(async (scope) => {
      await scope.register(cookie);
      await scope.register(formbody, { bodyLimit: 64 * 1024 });
      scope.decorateRequest('session', null);
      scope.decorateRequest('severalSessionCookies', false);
      scope.addHook('preValidation', refuseUnstorableInput);

      scope.addHook('onRequest', async (request, reply) => {
        void reply.headers(pageSecurityHeaders);
        // The stylesheet and script are the same for everyone: no session lookup for them.
        if (request.url.startsWith('/settings/assets/')) return;
        const cookie = readSessionCookie(request.headers.cookie, sessionCookieFor(context.urls.baseUrl).name);
        request.session = cookie.kind === 'one' ? await resumeSession(context, cookie.id, request.clientAddress) : null;
        request.severalSessionCookies = cookie.kind === 'several';
      });
      scope.addHook('preHandler', async (request, reply) => {
        if (request.method !== 'POST') return;
        if (!sameOrigin(request, context.urls.baseUrl)) return refuse(request, reply, tools, 'This form was sent from another site.');
        // Signing in has no session yet: the origin check above protects the token form, and
        // the sign-in link's form carries a token of its own (session/sign-in-form.ts).
        const route = request.routeOptions.url;
        if (route !== undefined && signInRoutes.has(route)) return;
        const given = (request.body as Record<string, unknown> | undefined)?.['_csrf'];
        if (!request.session || !tokensEqual(request.session.csrfToken, given)) {
          return refuse(request, reply, tools, 'This form has expired or was not sent from the settings area. Go back, reload the page and try again.');
        }
      });
      scope.setErrorHandler((error, request, reply) => sendErrorPage(request, reply, tools, error));

      scope.get(assets.css.path, (request, reply) => sendAsset(request, reply, assets.css));
      scope.get(assets.js.path, (request, reply) => sendAsset(request, reply, assets.js));
      authRoutes(scope, tools);
      pageRoutes(scope, tools);
      // Any other path under /settings is a page that does not exist, answered as a page.
      scope.all('/settings/*', (request, reply) => sendErrorPage(request, reply, tools, new ServiceError('not_found', 'no such page')));
    });
  };
}

/** Routes posted to without a session: the origin check protects them, and the link pages carry their own form token. */
const signInRoutes = new Set(['/login', '/login/link/:secret', '/login/email', '/login/invite/:secret', '/login/email/:secret']);

async function refuse(request: FastifyRequest, reply: FastifyReply, tools: SettingsRequestTools, message: string): Promise<void> {
  request.log.warn({ path: request.url.split('?')[0] }, 'settings form refused: origin or CSRF token');
  await sendPage(reply, 403, ErrorPage({ frame: tools.frame(request), status: 403, title: 'Request refused', message, signedIn: request.session !== null }));
}

const pageTitles: Record<number, string> = { 400: 'That did not work', 401: 'Sign in first', 403: 'Not allowed', 404: 'Page not found', 409: 'That did not work', 429: 'Too many requests', 503: 'Try again shortly' };

function sendErrorPage(request: FastifyRequest, reply: FastifyReply, tools: SettingsRequestTools, thrown: unknown): FastifyReply {
  // A dependency's failure is a 503, logged once by the dependency's health, not per page.
  const error = request.server.asUnavailable(thrown) ?? thrown;
  if (error instanceof ServiceError && error.code === 'unauthorized' && request.method === 'GET') {
    // A second session cookie may be scoped to /settings only (set by another site under a
    // shared parent domain): /login is told, or it would see one session and send the person back.
    const several = request.severalSessionCookies ? `&${severalCookiesParameter}` : '';
    return reply.code(303).header('location', `/login?next=${encodeURIComponent(request.url)}${several}`).send();
  }
  const status = error instanceof ServiceError ? error.status : ((error as { statusCode?: number }).statusCode ?? 500);
  if (status >= 500 && status !== 503) request.log.error({ err: error }, 'settings page failed');
  if (error instanceof ServiceError) setRetryAfter(reply, error);
  const message =
    status === 404
      ? 'There is nothing here, or you do not have access to it with the token you signed in with.'
      : status === 503
        ? 'The service cannot reach its database or its disk just now, so this was not done. Try again in a moment.'
        : status >= 500
        ? 'Something went wrong on the server. It has been logged; try again in a moment.'
        : (error as Error).message;
  return sendPage(reply, status, ErrorPage({ frame: tools.frame(request), status, title: pageTitles[status] ?? 'Something went wrong', message, signedIn: request.session !== null }));
}

function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: SettingsAssets['css']): FastifyReply {
  void reply.header('cache-control', 'public, max-age=31536000, immutable').header('etag', asset.etag);
  if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  return reply.type(asset.contentType).send(asset.body);
}
