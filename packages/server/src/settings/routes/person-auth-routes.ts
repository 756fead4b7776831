import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isValidEmail } from '../../lib/email-address.js';
import { describePersonLink, emailSignInLink, spendPersonLink } from '../../operations/person-sign-in.js';
import { redirectTo, sendPage } from '../render.js';
import type { SettingsRequestTools } from '../settings-tools.js';
import { sessionCookieFor } from '../session/session-cookie.js';
import { sessionMaxMs, startPersonSession } from '../session/session-store.js';
import { clearSignInFormCookie, issueSignInFormToken, signInFormTokenValid } from '../session/sign-in-form.js';
import { EmailSentPage, ErrorPage, LoginPage, PersonLinkPage } from '../views/login-page.js';

type AllowAttempt = (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>;

/**
 * People signing in (docs/members.md): `POST /login/email` (email me a link, when the
 * server has `--smtp-url`), and the links themselves, `/login/invite/{secret}` and
 * `/login/email/{secret}`: a GET shows who would sign in, the POST of its button spends the
 * link and starts the session, as `svc open`'s links do.
 */
export function personAuthRoutes(app: FastifyInstance, tools: SettingsRequestTools, allowAttempt: AllowAttempt): void {
  const { context, failures, emailLinks } = tools.dependencies;

  app.post<{ Body: { email?: unknown } }>('/login/email', async (request, reply) => {
    const frame = tools.frame(request);
    if (!context.mail) return sendPage(reply, 404, ErrorPage({ frame, status: 404, title: 'Page not found', message: 'This server does not send email, so it cannot email sign-in links. Sign in with a token.', signedIn: false }));
    if (!(await allowAttempt(request, reply))) return reply;
    // Every request for a link counts as a failed authentication of its address, so the form
    // can neither flood inboxes nor probe which addresses are members.
    await failures.record(request.clientAddress);
    const email = typeof request.body?.email === 'string' ? request.body.email.trim().toLowerCase() : '';
    if (!isValidEmail(email)) {
      return sendPage(reply, 400, LoginPage({ frame, next: '/settings', emailSignIn: true, email: email.slice(0, 254), error: 'Enter a valid email address to have a sign-in link emailed to you.' }));
    }
    if (await emailLinks.allow(email)) await emailSignInLink(context, email);
    return sendPage(reply, 200, EmailSentPage({ frame, email }));
  });

  const linkNotValid = async (request: FastifyRequest, reply: FastifyReply, invite: boolean): Promise<FastifyReply> => {
    await failures.record(request.clientAddress);
    const message = invite
      ? 'This invitation has expired, was already used or was replaced by a newer one. Ask an owner of the workspace to invite you again, or sign in by email if you already joined.'
      : 'This sign-in link has expired or was already used. Ask for a new one on the sign-in page.';
    return sendPage(reply, 401, ErrorPage({ frame: tools.frame(request), status: 401, title: 'Sign-in link not valid', message, signedIn: false }));
  };

  for (const kind of ['invite', 'email'] as const) {
    const path = `/login/${kind}/:secret`;
    // Opening a link only shows who would sign in: mail scanners open links before people do.
    app.get<{ Params: { secret: string } }>(path, async (request, reply) => {
      if (!(await allowAttempt(request, reply))) return reply;
      const { secret } = request.params;
      const holder = await describePersonLink(context, kind, secret);
      if (holder === null) return linkNotValid(request, reply, kind === 'invite');
      const csrfToken = issueSignInFormToken(request, reply, context.urls.baseUrl);
      return sendPage(reply, 200, PersonLinkPage({ frame: tools.frame(request), action: `/login/${kind}/${encodeURIComponent(secret)}`, csrfToken, holder }));
    });

    app.post<{ Params: { secret: string }; Body: { _csrf?: unknown } }>(path, async (request, reply) => {
      if (!signInFormTokenValid(request, context.urls.baseUrl, request.body?._csrf)) {
        const message = 'This sign-in form has expired or was not sent from the sign-in page. Open the link again and press Sign in.';
        return sendPage(reply, 403, ErrorPage({ frame: tools.frame(request), status: 403, title: 'Request refused', message, signedIn: false }));
      }
      if (!(await allowAttempt(request, reply))) return reply;
      const personId = await spendPersonLink(context, kind, request.params.secret);
      if (personId === null) return linkNotValid(request, reply, kind === 'invite');
      clearSignInFormCookie(reply, context.urls.baseUrl);
      const id = await startPersonSession(context, personId, request.clientAddress);
      const { name, options } = sessionCookieFor(context.urls.baseUrl);
      void reply.setCookie(name, id, { ...options, maxAge: sessionMaxMs / 1000 });
      return redirectTo(reply, '/settings');
    });
  }
}
