import pino, { type Logger } from 'pino';
import { deliverySettings } from '../delivery/delivery-settings.js';
import { MailSender } from '../delivery/mail-sender.js';
import type { ServerOptions } from '../server-options.js';
import type { Store } from '../store/store.js';
import { SecretBox } from '../webhooks/secret-box.js';
import type { OperationContext } from './context.js';

export interface OperationContextParts {
  readonly store: Store;
  /** Resolved options; `encryptionKey` must be set unless `secrets` is given. */
  readonly options: ServerOptions;
  readonly secrets?: SecretBox;
  readonly urls?: OperationContext['urls'];
  readonly forms?: OperationContext['forms'];
  readonly logger?: Logger;
  readonly now?: () => number;
}

/**
 * The context operations run with, built once: the server builds it at start, and tests and
 * the reliability harness build the same thing over their own store.
 */
export function createOperationContext(parts: OperationContextParts): OperationContext {
  const key = parts.options.encryptionKey;
  if (!parts.secrets && !key) throw new Error('an operation context needs the encryption key of webhook secrets');
  const urls = parts.urls ?? { baseUrl: 'http://127.0.0.1', formsUrl: 'http://127.0.0.1' };
  const now = parts.now ?? Date.now;
  const delivery = deliverySettings(parts.options);
  const { smtpUrl, mailFrom } = parts.options;
  return {
    store: parts.store,
    options: parts.options,
    secrets: parts.secrets ?? new SecretBox(key!),
    delivery,
    mail: smtpUrl === undefined || mailFrom === undefined ? null : { sender: new MailSender(smtpUrl, mailFrom, delivery.timeoutMs, now), baseUrl: () => urls.baseUrl },
    urls,
    forms: parts.forms ?? { invalidate: () => undefined },
    logger: parts.logger ?? pino({ level: 'silent' }),
    now,
  };
}
