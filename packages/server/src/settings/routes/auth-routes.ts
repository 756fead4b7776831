import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '@svc/protocol';
import { authFailuresName } from '../../auth/failed-authentications.js';
import { describeLink, spendLink } from '../../operations/sign-in-links.js';
import { rateLimitHeaders } from '../../ratelimit/headers.js';
import { redirectTo, sendPage } from '../render.js';
import type { SettingsRequestTools } from '../settings-tools.js';
import { readSessionCookie, sessionCookieFor } from '../session/session-cookie.js';
import { endSession, sessionMaxMs, startSession } from '../session/session-store.js';
import { clearSignInFormCookie, issueSignInFormToken, signInFormTokenValid } from '../session/sign-in-form.js';
import { ErrorPage, LoginPage, SignInLinkPage } from '../views/login-page.js';
import { personAuthRoutes } from './person-auth-routes.js';

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

/** `/login` (token form), `/login/link/{secret}` (made by `svc open`: a page, then its POST) and `/logout`. */
export function authRoutes(app: FastifyInstance, tools: SettingsRequestTools): void {
  const { context, authenticator } = tools.dependencies;
  const cookie = () => sessionCookieFor(context.urls.baseUrl);

  const begin = async (request: FastifyRequest, reply: FastifyReply, tokenId: string, next: string): Promise<FastifyReply> => {
    const id = await startSession(context, tokenId, request.clientAddress);
    const { name, options } = cookie();
    void reply.setCookie(name, id, { ...options, maxAge: sessionMaxMs / 1000 });
    return redirectTo(reply, next);
  };

  const { failures } = tools.dependencies;
  /** `/login` offers **Email me a sign-in link** when the server can send email. */
  const emailSignIn = context.mail !== null;

  /** Whether the client address may try to sign in; false (with a 429 page sent) past the limit of failures. */
  const allowAttempt = async (request: FastifyRequest, reply: FastifyReply): Promise<boolean> => {
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
      return await begin(request, reply, principal.tokenId, next);
    } catch (error) {
      if (!(error instanceof ServiceError) || error.code !== 'unauthorized') throw error;
      await failures.record(request.clientAddress);
      const message = token === '' ? 'Enter a token.' : 'That token is unknown or revoked. Check it and try again.';
      return sendPage(reply, 401, LoginPage({ frame: tools.frame(request), next, error: message, emailSignIn }));
    }
  });

  /** A link that is unknown, used, expired or whose token was revoked counts as a failed sign-in. */
  const linkNotValid = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    await failures.record(request.clientAddress);
    const message = 'This sign-in link has expired or was already used. Run `svc open` for a new one, or sign in with a token.';
    return sendPage(reply, 401, ErrorPage({ frame: tools.frame(request), status: 401, title: 'Sign-in link not valid', message, signedIn: false }));
  };

  // Opening a link only shows who would sign in, with a button: mail scanners and link
  // previews open links before people do, and a GET must not sign anyone in.
  app.get<{ Params: { secret: string } }>('/login/link/:secret', async (request, reply) => {
    if (!(await allowAttempt(request, reply))) return reply;
    const { secret } = request.params;
    const holder = await describeLink(context, secret);
    if (holder === null) return linkNotValid(request, reply);
    const csrfToken = issueSignInFormToken(request, reply, context.urls.baseUrl);
    return sendPage(reply, 200, SignInLinkPage({ frame: tools.frame(request), action: `/login/link/${encodeURIComponent(secret)}`, csrfToken, holder }));
  });

  // The button: spends the link and starts the session, if the form came from the page above.
  app.post<{ Params: { secret: string }; Body: { _csrf?: unknown } }>('/login/link/:secret', async (request, reply) => {
    if (!signInFormTokenValid(request, context.urls.baseUrl, request.body?._csrf)) {
      const message = 'This sign-in form has expired or was not sent from the sign-in page. Open the link again and press Sign in.';
      return sendPage(reply, 403, ErrorPage({ frame: tools.frame(request), status: 403, title: 'Request refused', message, signedIn: false }));
    }
    if (!(await allowAttempt(request, reply))) return reply;
    const tokenId = await spendLink(context, request.params.secret);
    if (tokenId === null) return linkNotValid(request, reply);
    clearSignInFormCookie(reply, context.urls.baseUrl);
    return begin(request, reply, tokenId, '/settings');
  });

  personAuthRoutes(app, tools, allowAttempt);

  app.post('/logout', async (request, reply) => {
    const { name, options } = cookie();
    const sent = readSessionCookie(request.headers.cookie, name);
    if (sent.kind === 'one') await endSession(context, sent.id);
    void reply.clearCookie(name, options);
    return redirectTo(reply, '/login?signedOut');
  });
}
