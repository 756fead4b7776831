import { newId } from '../lib/ids.js';
import type { OperationContext } from './context.js';

export interface PersonLinkMail {
  readonly to: string;
  readonly kind: 'invite' | 'sign-in';
  readonly url: string;
  /** The workspace an invite is to. */
  readonly workspace?: string;
  /** Who invited them, when a person did. */
  readonly inviter?: string | null;
  readonly name: string;
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Emails an invite or a sign-in link when the server has `--smtp-url` (docs/members.md).
 * Sent after the link is stored and never awaited by the caller: the answer to "email me a
 * link" must take as long for an unknown address as for a known one, and an invite's link
 * is in the answer too, so a mail server that fails loses nothing (it is logged).
 */
export function sendPersonLinkMail(context: OperationContext, mail: PersonLinkMail): void {
  if (!context.mail) return;
  const host = new URL(context.urls.baseUrl).host;
  const invite = mail.kind === 'invite';
  const subject = invite ? `You are invited to ${mail.workspace ?? 'a workspace'} on ${host}` : `Sign in to ${host}`;
  const lead = invite
    ? `${mail.inviter ?? 'Someone'} invited you to the workspace ${mail.workspace ?? ''} on ${host}. Open this link and press Sign in (it works once, for 7 days):`
    : `Open this link and press Sign in to sign in to ${host} (it works once, for 15 minutes):`;
  const ignore = invite ? 'If you did not expect this invitation, ignore this email.' : 'If you did not ask to sign in, ignore this email: nobody can sign in without the link.';
  const text = `Hello ${mail.name},\n\n${lead}\n\n${mail.url}\n\n${ignore}\n`;
  const html = `<p>Hello ${escapeHtml(mail.name)},</p><p>${escapeHtml(lead)}</p><p><a href="${escapeHtml(mail.url)}">${escapeHtml(mail.url)}</a></p><p>${escapeHtml(ignore)}</p>`;
  const { sender } = context.mail;
  void sender
    .send({ to: [mail.to], replyTo: null, subject, text, html, messageId: `<${newId('mail')}@${host}>`, headers: {} })
    .then((outcome) => {
      if (!outcome.accepted) context.logger.warn({ kind: mail.kind, error: outcome.error }, 'could not email a sign-in link');
    })
    .catch((error: unknown) => context.logger.warn({ err: error, kind: mail.kind }, 'could not email a sign-in link'));
}
