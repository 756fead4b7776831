import nodemailer, { type Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { AttemptOutcome } from './attempt-decision.js';

/** One notification email, ready to send. */
export interface MailMessage {
  readonly to: readonly string[];
  readonly replyTo: string | null;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  /** Stable per delivery, so a receiver can tell a retry from a new email. */
  readonly messageId: string;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Sends notification emails over SMTP with nodemailer (docs/form-endpoint.md,
 * "Notifications"). The server comes from `--smtp-url`, an operator's setting, so it is not
 * put through the webhook address policy. An attempt's outcome has the shape of a webhook
 * attempt's: `accepted` instead of a 2xx, the SMTP server's answer as the response body.
 */
export class MailSender {
  private readonly transport: Transporter<SMTPTransport.SentMessageInfo>;

  constructor(
    smtpUrl: string,
    readonly from: string,
    timeoutMs: number,
    private readonly now: () => number,
  ) {
    this.transport = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs });
  }

  async send(message: MailMessage): Promise<AttemptOutcome> {
    const startedAt = this.now();
    try {
      const info = await this.transport.sendMail({
        from: this.from,
        to: [...message.to],
        ...(message.replyTo === null ? {} : { replyTo: message.replyTo }),
        subject: message.subject,
        text: message.text,
        html: message.html,
        messageId: message.messageId,
        headers: { ...message.headers },
      });
      const rejected = info.rejected.map(String);
      const answer = rejected.length === 0 ? info.response : `${info.response} (refused: ${rejected.join(', ')})`;
      const accepted = info.accepted.length > 0;
      return { startedAt, durationMs: this.now() - startedAt, statusCode: null, accepted, error: accepted ? null : 'the SMTP server accepted no recipient', responseBody: answer, retryAfter: null };
    } catch (error) {
      const failure = error as Error & { response?: string; code?: string };
      return {
        startedAt,
        durationMs: this.now() - startedAt,
        statusCode: null,
        accepted: false,
        error: `smtp: ${failure.code ? `${failure.code} ` : ''}${failure.message}`.slice(0, 500),
        responseBody: failure.response ?? null,
        retryAfter: null,
      };
    }
  }

  close(): void {
    this.transport.close();
  }
}
