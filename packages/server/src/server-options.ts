import { defaultFormLimits, idempotencyWindowMs, type FormLimits } from './forms/limits.js';
import type { FormIpMode } from './forms/stored-ip.js';
import type { LogFormat } from './observability/logger.js';
import { noProxyTrust, type ProxyTrust } from './http/client-address.js';
import { defaultConnectionPolicy, type ConnectionPolicy } from './http/connection-policy.js';
import { defaultMaxKeys } from './ratelimit/rate-limiter.js';
import { defaultDatabaseTimeoutMs, defaultMinFreeBytes } from './store/store.js';
import { defaultCliPolicy, defaultFormPolicy, type RateLimitPolicy } from './ratelimit/policy.js';
import { defaultBuildSettings } from './builds/build-settings.js';
import type { DeliveryOptions } from './delivery/delivery-settings.js';
import { defaultDeployLimits } from './deploys/deploy-limits.js';
import type { OperationSettings } from './operations/context.js';
import { defaultInvitePolicies } from './auth/invite-limits.js';
import { defaultBackupSettings, type BackupSettings } from './backup/backup-settings.js';

export type ServerRole = 'all' | 'web' | 'worker';

/**
 * Everything `svc serve` can be told (docs/server.md), resolved and typed: what the
 * operations and the delivery worker read is declared by them (OperationSettings,
 * DeliveryOptions), the rest here.
 */
export interface ServerOptions extends OperationSettings, DeliveryOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly databaseUrl: string | undefined;
  readonly redisUrl: string | undefined;
  /** Prefix of every Redis key this server writes (lets instances or tests share a Redis). */
  readonly redisPrefix: string;
  /** Public address of the CLI API and settings pages; defaults to the listen address. */
  readonly baseUrl: string | undefined;
  /** Public address printed for form endpoints; defaults to baseUrl. */
  readonly formsUrl: string | undefined;
  /** Who may name the client in `x-forwarded-for` (docs/server.md, "Running behind a proxy"). */
  readonly trustProxy: ProxyTrust;
  /** Connections in all and per client, and the timeouts on each (docs/server.md, "Limits and timeouts"). */
  readonly connections: ConnectionPolicy;
  /** How long a database operation may wait (a connection, a lock, a statement) before it fails with 503. */
  readonly databaseTimeoutMs: number;
  /** Below this much free space under the data dir, health reports the storage full (docs/server.md, "When a dependency fails"). */
  readonly minFreeBytes: number;
  /** How often the health monitor probes the database, the storage and Redis. */
  readonly healthIntervalMs: number;
  /** Windows each rate limit of one process keeps in memory; past it the oldest are dropped (docs/server.md). */
  readonly rateLimitKeys: number;
  /** Finished deliveries, their attempts and events are removed after this (docs/privacy.md). */
  readonly retentionDeliveriesMs: number;
  /** Spam submissions and spam Pinpoints requests are removed after this. */
  readonly retentionSpamMs: number;
  /** Audit log entries are removed after this (docs/privacy.md: 400 days). */
  readonly retentionAuditMs: number;
  /** A webhook whose attempts all failed for this long is disabled (docs/webhooks.md: 5 days). */
  readonly webhookFailureWindowMs: number;
  /** How often the clean-up and retention job runs. */
  readonly maintenanceIntervalMs: number;
  /** Stored contents nothing holds are swept once last stored this long ago (docs/privacy.md). */
  readonly sweepGraceMs: number;
  /** How much of the client's address a submission keeps (docs/privacy.md). */
  readonly formIp: FormIpMode;
  /** Where Turnstile and hCaptcha tokens are checked (docs/form-endpoint.md, "Spam protection"). */
  readonly turnstileVerifyUrl: string;
  readonly hcaptchaVerifyUrl: string;
  /** Challenges a visitor's browser solves per ALTCHA challenge, at most (its difficulty). */
  readonly altchaMaxNumber: number;
  /** ALTCHA challenges a client may fetch per window, per form. */
  readonly challengeRateLimit: { readonly max: number; readonly windowSeconds: number };
  /**
   * The 32-byte key that encrypts webhook signing secrets at rest (SVC_ENCRYPTION_KEY);
   * undefined: `<dataDir>/encryption.key`, created on first start. Instances sharing a
   * database must share this key.
   */
  readonly encryptionKey: Uint8Array | undefined;
  readonly role: ServerRole;
  readonly bootstrapToken: string | undefined;
  readonly limits: FormLimits;
  /** Requests per window per token on the CLI API (the specification: 600 a minute). */
  readonly cliRateLimit: RateLimitPolicy;
  /** Failed authentications per client address (CLI API, `/login`, sign-in links) before 429. */
  readonly authFailureLimit: RateLimitPolicy;
  readonly idempotencyWindowMs: number;
  /** How long a form looked up by endpoint id is cached. */
  readonly formCacheTtlMs: number;
  readonly logLevel: string;
  /** JSON records, or lines for people (`svc serve` picks lines on a terminal without --json). */
  readonly logFormat: LogFormat;
  /** Colours in lines for people. */
  readonly logColors: boolean;
  /** Scheduled backups (docs/server.md, "Scheduled backups"): none without a directory. */
  readonly backups: BackupSettings;
}

export function serverOptions(overrides: Partial<ServerOptions> = {}): ServerOptions {
  return {
    host: '127.0.0.1',
    port: 8787,
    dataDir: './.svc',
    databaseUrl: undefined,
    redisUrl: undefined,
    redisPrefix: 'svc:',
    baseUrl: undefined,
    formsUrl: undefined,
    trustProxy: noProxyTrust,
    allowPrivateTargets: false,
    connections: defaultConnectionPolicy,
    rateLimitKeys: defaultMaxKeys,
    databaseTimeoutMs: defaultDatabaseTimeoutMs,
    minFreeBytes: defaultMinFreeBytes,
    deployLimits: defaultDeployLimits,
    previewDomain: 'localhost',
    deployTimeoutMs: 10 * 60_000,
    builds: defaultBuildSettings,
    healthIntervalMs: 1_000,
    retentionDeliveriesMs: 30 * 86_400_000,
    retentionSpamMs: 30 * 86_400_000,
    retentionAuditMs: 400 * 86_400_000,
    uploadQuotaBytes: 1024 ** 3,
    maintenanceIntervalMs: 3_600_000,
    sweepGraceMs: 3_600_000,
    webhookFailureWindowMs: 5 * 86_400_000,
    formIp: 'truncated',
    smtpUrl: undefined,
    mailFrom: undefined,
    invites: defaultInvitePolicies,
    retrySchedule: undefined,
    turnstileVerifyUrl: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    hcaptchaVerifyUrl: 'https://api.hcaptcha.com/siteverify',
    altchaMaxNumber: 100_000,
    challengeRateLimit: { max: 60, windowSeconds: 300 },
    encryptionKey: undefined,
    deliveryTimeoutMs: 10_000,
    deliveryLeaseMs: 60_000,
    deliveryPollIntervalMs: 30_000,
    deliveryConcurrency: 64,
    webhookConcurrency: 8,
    projectConcurrency: 16,
    maxWebhooksPerProject: 25,
    role: 'all',
    bootstrapToken: undefined,
    limits: defaultFormLimits,
    rateLimit: defaultFormPolicy,
    cliRateLimit: defaultCliPolicy,
    authFailureLimit: { max: 20, windowSeconds: 300 },
    idempotencyWindowMs,
    formCacheTtlMs: 5_000,
    logLevel: 'info',
    logFormat: 'json',
    logColors: false,
    backups: defaultBackupSettings,
    ...overrides,
  };
}
