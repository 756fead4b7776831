import type { AddressInfo, Server } from 'node:net';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';

/** One email as the server received it: the envelope and the raw message. */
export interface ReceivedMail {
  readonly from: string;
  readonly to: readonly string[];
  /** The whole message (headers and body) as sent. */
  readonly raw: string;
  /** A header's value (the first, unfolded), or ''. */
  header(name: string): string;
}

export interface MailServer {
  /** `smtp://127.0.0.1:PORT`, for `svc serve --smtp-url`. */
  readonly url: string;
  readonly port: number;
  readonly mails: ReceivedMail[];
  /** While refusing, every message is answered `451` (a temporary failure) and not kept. */
  refuse(refusing: boolean): void;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /**
   * The first message from index `since` on that went to `recipient`, once it is here: how a
   * test waits for its own email, whatever other emails of earlier steps arrive in between.
   */
  waitForMailTo(recipient: string, since?: number, timeoutMs?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server (the `smtp-server` package) on 127.0.0.1 and a random port, for the
 * notification tests: plain SMTP without STARTTLS or authentication, every message kept.
 */
export async function startMailServer(port = 0): Promise<MailServer> {
  const mails: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let refusing = false;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refusing) {
          callback(Object.assign(new Error('try again later'), { responseCode: 451 }));
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
        mails.push({ from, to: session.envelope.rcptTo.map((recipient) => recipient.address), raw, header: (name) => headerOf(raw, name) });
        callback();
        for (const wake of waiters) wake();
      });
    },
  });
  const listening = await new Promise<Server>((resolve, reject) => {
    server.once('error', reject);
    const net = server.listen(port, '127.0.0.1', () => resolve(net));
  });
  const address = (listening.address() as AddressInfo).port;
  const waitUntil = <T>(found: () => T | undefined, what: () => string, timeoutMs: number): Promise<T> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const value = found();
        if (value === undefined) return;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(value);
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(what()));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return {
    url: `smtp://127.0.0.1:${address}`,
    port: address,
    mails,
    refuse: (value) => void (refusing = value),
    waitFor: (count, timeoutMs = 15_000) =>
      waitUntil(
        () => (mails.length < count ? undefined : mails.slice(0, count)),
        () => `expected ${count} emails, got ${mails.length}`,
        timeoutMs,
      ),
    waitForMailTo: (recipient, since = 0, timeoutMs = 15_000) =>
      waitUntil(
        () => mails.slice(since).find((mail) => mail.to.includes(recipient)),
        () => `no email to ${recipient} after the first ${since} (got ${mails.length})`,
        timeoutMs,
      ),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function headerOf(raw: string, name: string): string {
  const head = raw.split(/\r?\n\r?\n/, 1)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const line = unfolded.split(/\r?\n/).find((candidate) => candidate.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line === undefined ? '' : line.slice(name.length + 1).trim();
}
