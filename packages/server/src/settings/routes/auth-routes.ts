import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '@svc/protocol';
import { authFailuresName } from '../../auth/failed-authentications.js';
import type { SessionSubject } from '../../operations/sign-in-links.js';
import { rateLimitHeaders } from '../../ratelimit/headers.js';
import { redirectTo, sendPage } from '../render.js';
import type { SettingsRequestTools } from '../settings-tools.js';
import { readSessionCookie, sessionCookieFor } from '../session/session-cookie.js';
import { endSession, sessionMaxMs, startSession } from '../session/session-store.js';
import { LoginPage } from '../views/login-page.js';
import { linkRoutes, type AllowAttempt } from './link-routes.js';
import { emailLinkRoute } from './email-link-route.js';

/**
 * Only our own pages are places to go back to after signing in: never another site, and
 * only printable ASCII (what `/login?next=` is given is a URL already percent-encoded), so
 * the `location` header can always carry it. Anything else leads to `/settings`.
 */
export function safeNext(value: unknown): string {
  if (typeof value !== 'string' || !value.startsWith('/settings') || value.length > 2000 || !/^[\x21-\x7e]*$/.test(value)) return '/settings';
  return value;
}

/** What `/settings` adds to its redirect to `/login` when a request carried several session cookies. */
export const severalCookiesParameter = 'cookies=several';

const severalCookies =
  'Your browser sent more than one session cookie, so none of them was trusted. Another site under the same parent domain may have set one: delete the cookies of this site and of its parent domain in your browser, then sign in again.';

/** `/login` (the token form), the one-time links' pages (link-routes.ts), `POST /login/email` and `/logout`. */
export function authRoutes(app: FastifyInstance, tools: SettingsRequestTools): void {
  const { context, authenticator } = tools.dependencies;
  const cookie = () => sessionCookieFor(context.urls.baseUrl);

  const begin = async (request: FastifyRequest, reply: FastifyReply, subject: SessionSubject, next: string): Promise<FastifyReply> => {
    const id = await startSession(context, subject, request.clientAddress);
    const { name, options } = cookie();
    void reply.setCookie(name, id, { ...options, maxAge: sessionMaxMs / 1000 });
    return redirectTo(reply, next);
  };

  const { failures } = tools.dependencies;
  /** `/login` offers **Email me a sign-in link** when the server can send email. */
  const emailSignIn = context.mail !== null;

  /** Whether the client address may try to sign in; false (with a 429 page sent) past the limit of failures. */
  const allowAttempt: AllowAttempt = async (request, reply) => {
    const decision = await failures.check(request.clientAddress);
    if (decision.allowed) return true;
    void reply.headers(rateLimitHeaders(decision, authFailuresName)).header('retry-after', String(decision.resetSeconds));
    const message = `Too many sign-in attempts from your address. Try again in ${decision.resetSeconds} seconds.`;
    await sendPage(reply, 429, LoginPage({ frame: tools.frame(request), next: '/settings', error: message, emailSignIn }));
    return false;
  };

  app.get<{ Querystring: { next?: string; signedOut?: string; cookies?: string } }>('/login', async (request, reply) => {
    const next = safeNext(request.query.next);
    const several = request.severalSessionCookies || request.query.cookies === 'several';
    if (request.session && !several) return redirectTo(reply, next);
    const message = request.query.signedOut !== undefined ? 'You are signed out.' : undefined;
    return sendPage(reply, 200, LoginPage({ frame: tools.frame(request), next, emailSignIn, ...(message ? { message } : {}), ...(several ? { error: severalCookies } : {}) }));
  });

  app.post<{ Body: { token?: unknown; next?: unknown } }>('/login', async (request, reply) => {
    const next = safeNext(request.body?.next);
    if (!(await allowAttempt(request, reply))) return reply;
    const token = typeof request.body?.token === 'string' ? request.body.token.trim() : '';
    try {
      const principal = await authenticator.authenticateToken(token);
      return await begin(request, reply, { kind: 'token', tokenId: principal.tokenId }, next);
    } catch (error) {
      if (!(error instanceof ServiceError) || error.code !== 'unauthorized') throw error;
      await failures.record(request.clientAddress);
      const message = token === '' ? 'Enter a token.' : 'That token is unknown or revoked. Check it and try again.';
      return sendPage(reply, 401, LoginPage({ frame: tools.frame(request), next, error: message, emailSignIn }));
    }
  });

  linkRoutes(app, tools, allowAttempt, begin);
  emailLinkRoute(app, tools, allowAttempt);

  app.post('/logout', async (request, reply) => {
    const { name, options } = cookie();
    const sent = readSessionCookie(request.headers.cookie, name);
    if (sent.kind === 'one') await endSession(context, sent.id);
    void reply.clearCookie(name, options);
    return redirectTo(reply, '/login?signedOut');
  });
}
