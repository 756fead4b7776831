import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { SecretBox } from '../secrets/secret-box.js';
import { claimDueMail, hasDueMail, nextMailDue, recordMailAttempt } from '../store/queries/mail-outbox.js';
import type { MailOutboxRow } from '../store/schema.js';
import type { Store } from '../store/store.js';
import type { MailMessage, MailSender } from './mail-sender.js';
import { nextAttemptAt, type RetryPolicy } from './retry-policy.js';
import { WakeTimer } from './wake-timer.js';

/** What a queued message holds, sealed: everything the SMTP server is given but its recipient. */
export type OutboxMessage = Omit<MailMessage, 'to'>;

/** The additional authenticated data a queued message is sealed with: copied to another row, it does not open. */
export const outboxMessageContext = (id: string): string => `mail-outbox:${id}`;

export interface MailOutboxServices {
  readonly store: Pick<Store, 'db' | 'transaction' | 'capabilities'>;
  readonly box: Pick<SecretBox, 'open'>;
  readonly sender: Pick<MailSender, 'send'>;
  /** The webhooks' retry schedule (`--retry-schedule`). */
  readonly policy: RetryPolicy;
  /** How often other instances' messages are looked for. */
  readonly pollIntervalMs: number;
  readonly leaseMs: number;
  readonly logger: Logger;
  readonly now: () => number;
}

const batch = 20;

/**
 * Sends the emails that carry a one-time link (docs/members.md, "Emails that carry a
 * link"): each was queued in the transaction that made its link, and is sent, retried on
 * the webhooks' schedule while its link still works, or given up with the reason. Woken in
 * this process when a message is queued; other instances' are found by a poll. A message is
 * leased while it is sent, so two instances never send one twice for one attempt.
 */
export class MailOutboxWorker {
  private readonly owner = `mail-${randomBytes(8).toString('hex')}`;
  private timer: NodeJS.Timeout | null = null;
  /** The next retry this process waits for, sooner than the poll. */
  private readonly retry = new WakeTimer(() => this.wake());
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(private readonly services: MailOutboxServices) {}

  start(): void {
    this.timer = setInterval(() => this.wake(), this.services.pollIntervalMs);
    this.timer.unref();
    this.wake();
  }

  /** Sends what is due now; a wake during a run makes one more run after it. */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((error: unknown) => this.services.logger.warn({ err: error }, 'could not send queued emails; will retry'))
      .finally(() => {
        this.running = null;
        if (this.again && !this.stopped) {
          this.again = false;
          this.wake();
        }
      });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.retry.clear();
    await this.running;
  }

  private async drain(): Promise<void> {
    const { store, now } = this.services;
    while (!this.stopped && (await hasDueMail(store.db, now()))) {
      const at = now();
      const claimed = await store.transaction((trx) => claimDueMail(trx, store.capabilities, { now: at, owner: this.owner, leaseUntil: at + this.services.leaseMs, limit: batch }));
      if (claimed.length === 0) break;
      for (const row of claimed) await this.send(row);
    }
    const due = await nextMailDue(store.db);
    if (due !== null && !this.stopped) this.retry.wakeAt(Math.max(due, now()), now());
  }

  private async send(row: MailOutboxRow): Promise<void> {
    const { store, box, sender, policy, now } = this.services;
    const started = now();
    if (row.expires_at <= started || row.message_sealed === null) {
      await recordMailAttempt(store.db, row.id, this.owner, { status: 'failed', error: 'its link expired before the email could be sent', retryAt: null, now: started });
      return;
    }
    let message: OutboxMessage;
    try {
      message = JSON.parse(box.open(row.message_sealed, outboxMessageContext(row.id))) as OutboxMessage;
    } catch {
      await recordMailAttempt(store.db, row.id, this.owner, { status: 'failed', error: 'the queued message cannot be opened with the key of this server', retryAt: null, now: started });
      return;
    }
    const outcome = await sender.send({ ...message, to: [row.recipient] });
    const finished = now();
    if (outcome.accepted) {
      await recordMailAttempt(store.db, row.id, this.owner, { status: 'sent', error: null, retryAt: null, now: finished });
      return;
    }
    const retryAt = nextAttemptAt(policy, { attemptInBudget: row.attempts + 1, statusCode: null, retryAfter: null, now: finished });
    const givenUp = retryAt === null || retryAt >= row.expires_at;
    this.services.logger.warn({ purpose: row.purpose, attempt: row.attempts + 1, error: outcome.error, givenUp }, givenUp ? 'gave up an email with a link' : 'could not send an email with a link; will retry');
    await recordMailAttempt(store.db, row.id, this.owner, { status: givenUp ? 'failed' : 'pending', error: outcome.error, retryAt: givenUp ? null : retryAt, now: finished });
  }
}
