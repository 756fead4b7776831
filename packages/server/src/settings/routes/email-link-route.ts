import type { FastifyInstance } from 'fastify';
import { isValidEmail } from '../../lib/email-address.js';
import { emailSignInLink } from '../../operations/person-sign-in.js';
import { sendPage } from '../render.js';
import type { SettingsRequestTools } from '../settings-tools.js';
import { EmailSentPage, ErrorPage, LoginPage } from '../views/login-page.js';
import type { AllowAttempt } from './link-routes.js';

/**
 * `POST /login/email` (docs/members.md): emails a person a sign-in link, when the server has
 * `--smtp-url`. The link's own page is one of the one-time links' (link-routes.ts).
 */
export function emailLinkRoute(app: FastifyInstance, tools: SettingsRequestTools, allowAttempt: AllowAttempt): void {
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
}
