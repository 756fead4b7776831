import { randomBytes } from 'node:crypto';
import pino, { type Logger } from 'pino';
import { InviteLimits } from '../auth/invite-limits.js';
import { deliverySettings, type DeliveryOptions, type DeliverySettings } from '../delivery/delivery-settings.js';
import { OutboxWake } from '../delivery/attempt-delivery.js';
import { MailSender } from '../delivery/mail-sender.js';
import { defaultMaxKeys, WindowRateLimiter, type RateLimiter } from '../ratelimit/rate-limiter.js';
import type { Store } from '../store/store.js';
import { SecretBox } from '../secrets/secret-box.js';
import type { OperationContext, OperationSettings } from './context.js';

/** What a context is built from: the operations' settings, delivery's, and the key of webhook secrets. */
export type OperationContextOptions = OperationSettings & DeliveryOptions & { readonly encryptionKey: Uint8Array | undefined };

export interface OperationContextParts {
  readonly store: Store;
  /** Resolved options; `encryptionKey` must be set unless `secrets` is given. */
  readonly options: OperationContextOptions;
  /** Delivery settings resolved already (the server resolves them once, at start); else resolved here from `options`. */
  readonly delivery?: DeliverySettings;
  readonly secrets?: SecretBox;
  readonly urls?: OperationContext['urls'];
  readonly forms?: OperationContext['forms'];
  readonly logger?: Logger;
  readonly now?: () => number;
  /** The server's rate limiter, which counts invites; else they are counted in this process. */
  readonly rateLimiter?: RateLimiter;
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
  const delivery = parts.delivery ?? deliverySettings(parts.options);
  const options = operationSettings(parts.options);
  const { smtpUrl, mailFrom } = options;
  const limiter = parts.rateLimiter ?? WindowRateLimiter.inProcess({ maxKeys: defaultMaxKeys, secret: randomBytes(32) });
  return {
    store: parts.store,
    options,
    secrets: parts.secrets ?? new SecretBox(key!),
    delivery,
    mail: smtpUrl === undefined || mailFrom === undefined ? null : { sender: new MailSender(smtpUrl, mailFrom, delivery.timeoutMs, now), baseUrl: () => urls.baseUrl, outbox: new OutboxWake() },
    urls,
    forms: parts.forms ?? { invalidate: () => undefined },
    logger: parts.logger ?? pino({ level: 'silent' }),
    now,
    invites: new InviteLimits(limiter, options.invites),
  };
}

/** Only what operations read of the options, frozen: settings do not change after start. */
function operationSettings(options: OperationSettings): OperationSettings {
  const { dataDir, allowPrivateTargets, deployLimits, previewDomain, deployTimeoutMs, builds, uploadQuotaBytes, maxWebhooksPerProject, rateLimit, smtpUrl, mailFrom, invites } = options;
  return Object.freeze({
    dataDir,
    allowPrivateTargets,
    deployLimits: Object.freeze({ ...deployLimits }),
    previewDomain,
    deployTimeoutMs,
    builds: Object.freeze({ ...builds }),
    uploadQuotaBytes,
    maxWebhooksPerProject,
    rateLimit: Object.freeze({ ...rateLimit }),
    smtpUrl,
    mailFrom,
    invites: Object.freeze({ perWorkspace: Object.freeze({ ...invites.perWorkspace }), perAddress: Object.freeze({ ...invites.perAddress }) }),
  });
}
