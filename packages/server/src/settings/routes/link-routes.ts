import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { describeLink, spendLink, type LinkPurpose, type SessionSubject } from '../../operations/sign-in-links.js';
import { sendPage } from '../render.js';
import type { SettingsRequestTools } from '../settings-tools.js';
import { clearSignInFormCookie, issueSignInFormToken, signInFormTokenValid } from '../session/sign-in-form.js';
import { ErrorPage, LinkPage } from '../views/login-page.js';

/** Whether the client address may try to sign in; false (with a 429 page sent) past the limit of failures. */
export type AllowAttempt = (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>;
/** Starts the subject's session, sets its cookie and redirects. */
export type BeginSession = (request: FastifyRequest, reply: FastifyReply, subject: SessionSubject, next: string) => Promise<FastifyReply>;

/** Each purpose's route, and what its page says when the link is not valid. */
const linkRoutesByPurpose: readonly { purpose: LinkPurpose; prefix: string; notValid: string }[] = [
  { purpose: 'open', prefix: '/login/link', notValid: 'This sign-in link has expired or was already used. Run `svc open` for a new one, or sign in with a token.' },
  {
    purpose: 'invite',
    prefix: '/login/invite',
    notValid: 'This invitation has expired, was already used or was replaced by a newer one. Ask an owner of the workspace to invite you again, or sign in by email if you already joined.',
  },
  { purpose: 'email', prefix: '/login/email', notValid: 'This sign-in link has expired or was already used. Ask for a new one on the sign-in page.' },
];

/**
 * The one-time links' pages (docs/settings.md): `/login/link/{secret}` (`svc open`),
 * `/login/invite/{secret}` and `/login/email/{secret}` (docs/members.md). A GET only shows
 * who would sign in, with one button: mail scanners and link previews open links before
 * people do, and a GET must not sign anyone in. The button's POST, carrying the sign-in
 * form's token, spends the link and starts the session. A link works only at its purpose's
 * route; anywhere else it is not valid, and left unspent.
 */
export function linkRoutes(app: FastifyInstance, tools: SettingsRequestTools, allowAttempt: AllowAttempt, begin: BeginSession): void {
  const { context, failures } = tools.dependencies;

  /** A link that is unknown, used, expired or whose token was revoked counts as a failed sign-in. */
  const linkNotValid = async (request: FastifyRequest, reply: FastifyReply, message: string): Promise<FastifyReply> => {
    await failures.record(request.clientAddress);
    return sendPage(reply, 401, ErrorPage({ frame: tools.frame(request), status: 401, title: 'Sign-in link not valid', message, signedIn: false }));
  };

  /**
   * The invite link shown to whoever invited a person who belongs to another workspace: it
   * proves nothing about the address, so it signs nobody in (docs/members.md). A valid link,
   * so no failed authentication; left unspent.
   */
  const linkRefused = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const message = context.mail
      ? 'This is the invitation link shown to whoever invited you. You already belong to another workspace, so only the invitation emailed to you can add this one to your account: open the link in that email.'
      : 'This is the invitation link shown to whoever invited you. You already belong to another workspace, and this server sends no email, so it cannot tell that this address is yours: ask the person who runs it to set up email (svc serve --smtp-url) and invite you again.';
    const title = context.mail ? 'Use the invitation emailed to you' : 'This link cannot sign you in';
    return sendPage(reply, 403, ErrorPage({ frame: tools.frame(request), status: 403, title, message, signedIn: false }));
  };

  for (const { purpose, prefix, notValid } of linkRoutesByPurpose) {
    app.get<{ Params: { secret: string } }>(`${prefix}/:secret`, async (request, reply) => {
      if (!(await allowAttempt(request, reply))) return reply;
      const { secret } = request.params;
      const holder = await describeLink(context, purpose, secret);
      if (holder === null) return linkNotValid(request, reply, notValid);
      if (holder.purpose !== 'open' && holder.reach === 'refused') return linkRefused(request, reply);
      const csrfToken = issueSignInFormToken(request, reply, context.urls.baseUrl);
      return sendPage(reply, 200, LinkPage({ frame: tools.frame(request), action: `${prefix}/${encodeURIComponent(secret)}`, csrfToken, holder }));
    });

    app.post<{ Params: { secret: string }; Body: { _csrf?: unknown } }>(`${prefix}/:secret`, async (request, reply) => {
      if (!signInFormTokenValid(request, context.urls.baseUrl, request.body?._csrf)) {
        const message = 'This sign-in form has expired or was not sent from the sign-in page. Open the link again and press Sign in.';
        return sendPage(reply, 403, ErrorPage({ frame: tools.frame(request), status: 403, title: 'Request refused', message, signedIn: false }));
      }
      if (!(await allowAttempt(request, reply))) return reply;
      const subject = await spendLink(context, purpose, request.params.secret);
      if (subject === null) return linkNotValid(request, reply, notValid);
      if (subject === 'refused') return linkRefused(request, reply);
      clearSignInFormCookie(reply, context.urls.baseUrl);
      return begin(request, reply, subject, '/settings');
    });
  }
}
