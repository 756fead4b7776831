import { defaultFormLimits, idempotencyWindowMs, type FormLimits } from './forms/limits.js';
import type { FormIpMode } from './forms/stored-ip.js';
import type { LogFormat } from './observability/logger.js';
import { noProxyTrust, type ProxyTrust } from './http/client-address.js';
import { defaultConnectionPolicy, type ConnectionPolicy } from './http/connection-policy.js';
import { defaultMaxKeys } from './ratelimit/rate-limiter.js';
import { defaultDatabaseTimeoutMs, defaultMinFreeBytes } from './store/store.js';
import { defaultCliPolicy, defaultFormPolicy, type RateLimitPolicy } from './ratelimit/policy.js';

export type ServerRole = 'all' | 'web' | 'worker';

/** Everything `svc serve` can be told (docs/server.md), resolved and typed. */
export interface ServerOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  readonly dataDir: string;
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
  readonly allowPrivateTargets: boolean;
  /** Connections in all and per client, and the timeouts on each (docs/server.md, "Limits and timeouts"). */
  readonly connections: ConnectionPolicy;
  /** How long a database operation may wait (a connection, a lock, a statement) before it fails with 503. */
  readonly databaseTimeoutMs: number;
  /** Below this much free space under the data dir, health reports the storage full (docs/server.md, "When a dependency fails"). */
  readonly minFreeBytes: number;
  /** Limits of one deploy (docs/hosting.md). */
  readonly deployLimits: DeployLimits;
  /** Previews answer at `{deploy id}.{previewDomain}` (docs/hosting.md). */
  readonly previewDomain: string;
  /** An upload that makes no progress for this long fails (its deploy is marked failed). */
  readonly deployTimeoutMs: number;
  /** Builds from git (docs/hosting.md, "Deploys from git"). */
  readonly builds: BuildSettings;
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
  /** Bytes of form files and Pinpoints screenshots one project may keep (docs/hosting.md, "Upload quota"). */
  readonly uploadQuotaBytes: number;
  /** A webhook whose attempts all failed for this long is disabled (docs/webhooks.md: 5 days). */
  readonly webhookFailureWindowMs: number;
  /** How often the clean-up and retention job runs. */
  readonly maintenanceIntervalMs: number;
  /** Stored contents nothing holds are swept once last stored this long ago (docs/privacy.md). */
  readonly sweepGraceMs: number;
  /** How much of the client's address a submission keeps (docs/privacy.md). */
  readonly formIp: FormIpMode;
  /** The SMTP server that sends notification emails (`smtp://` or `smtps://`, may hold a password: never logged). */
  readonly smtpUrl: string | undefined;
  /** The sender of notification emails: `address` or `Name <address>`. */
  readonly mailFrom: string | undefined;
  /** Where Turnstile and hCaptcha tokens are checked (docs/form-endpoint.md, "Spam protection"). */
  readonly turnstileVerifyUrl: string;
  readonly hcaptchaVerifyUrl: string;
  /** Challenges a visitor's browser solves per ALTCHA challenge, at most (its difficulty). */
  readonly altchaMaxNumber: number;
  /** ALTCHA challenges a client may fetch per window, per form. */
  readonly challengeRateLimit: { readonly max: number; readonly windowSeconds: number };
  /** Delays between delivery attempts, in milliseconds; undefined keeps the default. */
  readonly retrySchedule: readonly number[] | undefined;
  /**
   * The 32-byte key that encrypts webhook signing secrets at rest (SVC_ENCRYPTION_KEY);
   * undefined: `<dataDir>/encryption.key`, created on first start. Instances sharing a
   * database must share this key.
   */
  readonly encryptionKey: Uint8Array | undefined;
  /** One delivery attempt, from connecting to the end of the answer. */
  readonly deliveryTimeoutMs: number;
  /** How long a claimed delivery stays with its worker; at least the timeout + 1 s. */
  readonly deliveryLeaseMs: number;
  /** The delivery worker's safety-net poll (wake-ups normally come from events and timers). */
  readonly deliveryPollIntervalMs: number;
  /** Delivery requests in flight at once, per process. */
  readonly deliveryConcurrency: number;
  /** Of those, how many one webhook may have (docs/webhooks.md). */
  readonly webhookConcurrency: number;
  /** Of those, how many the webhooks of one project may have together. */
  readonly projectConcurrency: number;
  /** Webhooks (not counting notification emails) one project may have. */
  readonly maxWebhooksPerProject: number;
  readonly role: ServerRole;
  readonly bootstrapToken: string | undefined;
  readonly limits: FormLimits;
  readonly rateLimit: RateLimitPolicy;
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
}

export type BuildSandbox = 'auto' | 'bwrap' | 'none';

export interface BuildSettings {
  /** Builds one instance runs at once (`--build-concurrency`). */
  readonly concurrency: number;
  /** A build running longer is killed with its process tree (`--build-timeout`). */
  readonly timeoutMs: number;
  readonly sandbox: BuildSandbox;
  /** `file://` URLs and local paths as repositories (`--allow-local-repos`; development and tests). */
  readonly allowLocalRepos: boolean;
  /** How long a running build stays with its instance unless renewed; past it, the build was abandoned. */
  readonly leaseMs: number;
  /** The build worker's safety-net poll for queued builds. */
  readonly pollIntervalMs: number;
  /** A build's memory cap (`--build-memory`). */
  readonly memoryBytes: number;
  /** Whether the repository's build step has the network (`--build-network`; installing always does). */
  readonly network: boolean;
}

export const defaultBuildSettings: BuildSettings = { concurrency: 1, timeoutMs: 15 * 60_000, sandbox: 'auto', allowLocalRepos: false, leaseMs: 60_000, pollIntervalMs: 5_000, memoryBytes: 2 * 1024 ** 3, network: false };

/** Limits of one deploy: files, bytes in all, bytes of the largest file. */
export interface DeployLimits {
  readonly files: number;
  readonly bytes: number;
  readonly fileBytes: number;
}

export const defaultDeployLimits: DeployLimits = { files: 20_000, bytes: 1024 ** 3, fileBytes: 100 * 1024 ** 2 };

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
    ...overrides,
  };
}
