import { WEBHOOK_DELIVERY_HEADER, WEBHOOK_EVENT_HEADER, WEBHOOK_EVENT_ID_HEADER, WEBHOOK_SIGNATURE_HEADER, WEBHOOK_TEST_HEADER, sign } from '@svc/webhooks';
import type { DeliveryJob } from '../store/queries/delivery-jobs.js';
import type { AttemptRecord } from '../store/queries/record-attempts.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { activeSigningSecrets } from '../webhooks/signing-secret.js';
import { decideDelivery, describeOutcome, type AttemptOutcome } from './attempt-decision.js';
import type { HttpSender, OutgoingRequest } from './http-sender.js';
import type { MailMessage, MailSender } from './mail-sender.js';
import { notificationEmail } from './notification-email.js';
import type { RetryPolicy } from './retry-policy.js';

/** How this server sends notification emails; null without `--smtp-url`. */
export interface MailDelivery {
  readonly sender: MailSender;
  /** The public base URL, for the link to the submission (known once the server listens). */
  readonly baseUrl: () => string;
  /** Tells this process's mail outbox that a message was queued (a no-op where none runs). */
  readonly outbox: OutboxWake;
}

/** Wakes the mail outbox of this process, once one is started (delivery/mail-outbox.ts). */
export class OutboxWake {
  private target: (() => void) | null = null;

  /** The worker to wake; null where this process sends no email itself. */
  bind(target: (() => void) | null): void {
    this.target = target;
  }

  wake(): void {
    this.target?.();
  }
}

export interface AttemptDependencies {
  readonly sender: HttpSender;
  readonly mail: MailDelivery | null;
  readonly box: SecretBox;
  readonly policy: RetryPolicy;
  readonly now: () => number;
}

export interface AttemptResult {
  readonly outcome: AttemptOutcome;
  /** What to record, fenced on the job's lease. */
  readonly record: AttemptRecord;
}

/** The request of one attempt, signed now with every active secret (docs/webhooks.md). */
export function deliveryRequest(job: DeliveryJob, secrets: readonly string[], now: number): OutgoingRequest {
  return {
    url: job.url,
    body: job.payload,
    headers: {
      'content-type': 'application/json',
      'user-agent': 'svc-webhooks/1',
      [WEBHOOK_SIGNATURE_HEADER]: sign(secrets, job.payload, Math.floor(now / 1000)),
      [WEBHOOK_EVENT_HEADER]: job.eventType,
      [WEBHOOK_EVENT_ID_HEADER]: job.eventId,
      [WEBHOOK_DELIVERY_HEADER]: job.deliveryId,
      ...(job.test ? { [WEBHOOK_TEST_HEADER]: '1' } : {}),
    },
  };
}

/** Makes one attempt of a leased delivery and decides what becomes of it. Never throws for the receiver's sake. */
export async function attemptDelivery(job: DeliveryJob, dependencies: AttemptDependencies): Promise<AttemptResult> {
  const { outcome, requestHeaders } = await send(job, dependencies);
  const finishedAt = outcome.startedAt + outcome.durationMs;
  const verdict = decideDelivery(dependencies.policy, outcome, job.attempts + 1 - job.retryBase, finishedAt);
  return {
    outcome,
    record: {
      deliveryId: job.deliveryId,
      webhookId: job.webhookId,
      leaseOwner: job.leaseOwner,
      attemptsBefore: job.attempts,
      startedAt: outcome.startedAt,
      durationMs: outcome.durationMs,
      statusCode: outcome.statusCode,
      error: outcome.error,
      responseBody: outcome.responseBody,
      requestHeaders,
      status: verdict.status,
      nextAttemptAt: verdict.status === 'pending' ? verdict.nextAttemptAt : null,
      lastError: describeOutcome(outcome),
      disableWebhook: verdict.status === 'failed' ? verdict.disableWebhook : null,
    },
  };
}

/** The attempt's outcome, and the headers it sent (kept for the delivery log; null when nothing was sent). */
async function send(job: DeliveryJob, dependencies: AttemptDependencies): Promise<{ outcome: AttemptOutcome; requestHeaders: Readonly<Record<string, string>> | null }> {
  if (job.kind === 'email') return sendEmail(job, dependencies);
  const { sender, box, now: clock } = dependencies;
  const now = clock();
  let secrets: string[];
  try {
    secrets = activeSigningSecrets(job, box, now);
  } catch {
    // Checked at start, so only a secret damaged since then lands here; it is not sent unsigned.
    const outcome = { startedAt: now, durationMs: 0, statusCode: null, error: 'the signing secret cannot be decrypted with the key of this server', responseBody: null, retryAfter: null };
    return { outcome, requestHeaders: null };
  }
  let request: OutgoingRequest;
  try {
    request = deliveryRequest(job, secrets, now);
  } catch (error) {
    const outcome = { startedAt: now, durationMs: 0, statusCode: null, error: `the request could not be signed: ${(error as Error).message}`, responseBody: null, retryAfter: null };
    return { outcome, requestHeaders: null };
  }
  return { outcome: await sender.send(request), requestHeaders: request.headers };
}

/** A notification email; its headers are what the delivery log keeps of the attempt. */
async function sendEmail(job: DeliveryJob, { mail, now: clock }: AttemptDependencies): Promise<{ outcome: AttemptOutcome; requestHeaders: Readonly<Record<string, string>> | null }> {
  const now = clock();
  if (mail === null) {
    const outcome = { startedAt: now, durationMs: 0, statusCode: null, accepted: false, error: 'this server sends no email: start it with --smtp-url and --mail-from', responseBody: null, retryAfter: null };
    return { outcome, requestHeaders: null };
  }
  let message: MailMessage;
  try {
    message = notificationEmail(job, mail.baseUrl(), mail.sender.from);
  } catch (error) {
    const outcome = { startedAt: now, durationMs: 0, statusCode: null, accepted: false, error: `the email could not be written: ${(error as Error).message}`, responseBody: null, retryAfter: null };
    return { outcome, requestHeaders: null };
  }
  const headers = {
    from: mail.sender.from,
    to: message.to.join(', '),
    ...(message.replyTo === null ? {} : { 'reply-to': message.replyTo }),
    subject: message.subject,
    'message-id': message.messageId,
    ...message.headers,
  };
  return { outcome: await mail.sender.send(message), requestHeaders: headers };
}
