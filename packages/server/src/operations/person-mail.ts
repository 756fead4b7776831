import { newId } from '../lib/ids.js';
import { outboxMessageContext, type OutboxMessage } from '../delivery/mail-outbox.js';
import { queueMail } from '../store/queries/mail-outbox.js';
import type { Db } from '../store/store.js';
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
 * Queues the email of an invite or a sign-in link when the server has `--smtp-url`
 * (docs/members.md, "Emails that carry a link"), in the caller's transaction, the one that
 * stores the link: a mail server that is down delays it (the mail outbox retries it on the
 * webhooks' schedule while the link works) instead of losing it. The message is sealed: it
 * holds the link. Call `context.mail.outbox.wake()` once the transaction committed.
 */
export async function queuePersonLinkMail(trx: Db, context: OperationContext, mail: PersonLinkMail, expiresAt: number): Promise<void> {
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
  const now = context.now();
  const id = newId('mail', now);
  const message: OutboxMessage = { replyTo: null, subject, text, html, messageId: `<${id}@${host}>`, headers: {} };
  await queueMail(trx, { id, purpose: mail.kind, recipient: mail.to, messageSealed: context.secrets.seal(JSON.stringify(message), outboxMessageContext(id)), expiresAt, now });
}
