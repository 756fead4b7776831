import { resolve } from 'node:path';
import { isValidEmail } from './lib/email-address.js';
import { parseProxyTrust } from './http/client-address.js';
import type { FormLimits } from './forms/limits.js';
import { formIpModes, type FormIpMode } from './forms/stored-ip.js';
import { parseBoolean, parseCount, parseDuration, parseDurationList, parseRateLimit, parseSize } from '@svc/protocol';
import { serverOptions, type ServerOptions, type ServerRole } from './server-options.js';
import { parseEncryptionKey } from './secrets/encryption-key.js';

type Draft = { -readonly [K in keyof ServerOptions]: ServerOptions[K] } & { limits: FormLimits };

/**
 * One `svc serve` option: its flag, environment variable, default, help and parser. The
 * CLI builds its flags from this table, the server resolves them with it, and a test checks
 * docs/server.md against it: an option is written once.
 */
export interface ServeFlag {
  /** `--port`. */
  readonly flag: string;
  /** `<port>` for a flag that takes a value, `[hops]` for an optional one; absent for a switch. */
  readonly value?: string;
  readonly env: string;
  /** The default as written on the command line; absent when there is none. */
  readonly defaultValue?: string;
  readonly description: string;
  readonly choices?: readonly string[];
  /** Left out of `svc serve --help` (tests and unusual set-ups; still documented). */
  readonly hidden?: boolean;
  /** Parses the given text into the options; throws with the problem in words. */
  readonly apply: (text: string, draft: Draft, context: { cwd: string }) => void;
}

const size = (set: (draft: Draft, bytes: number) => void) => (text: string, draft: Draft) => set(draft, parseSize(text));
const emptyToUndefined = (text: string): string | undefined => (text === '' ? undefined : text);

function httpUrl(text: string): string | undefined {
  if (text === '') return undefined;
  const url = new URL(text);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('must be an http:// or https:// URL');
  return text.replace(/\/+$/, '');
}

/** `text` as a URL of one of `schemes`, else the error `problem`. */
function urlOfScheme(text: string, schemes: readonly string[], problem: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(problem);
  }
  if (!schemes.includes(url.protocol)) throw new Error(problem);
  return url;
}

/** A siteverify address: http(s), kept exactly as given (a query string may matter to a proxy). */
function verifyUrl(text: string): string {
  return urlOfScheme(text, ['http:', 'https:'], 'must be an http:// or https:// URL').href;
}

function smtpUrl(text: string): string | undefined {
  if (text === '') return undefined;
  const url = urlOfScheme(text, ['smtp:', 'smtps:'], 'must be an smtp:// or smtps:// URL');
  if (url.hostname === '') throw new Error('must name the SMTP server\'s host');
  return text;
}

/** A DNS domain of letters, digits, hyphens and dots: where previews answer. */
function parseDomain(text: string): string {
  const domain = text.trim().toLowerCase().replace(/\.$/, '');
  if (!/^(?=.{1,200}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(domain)) throw new Error('must be a domain name such as preview.example.com');
  return domain;
}

/** A connection timeout: from 100 ms to an hour. */
function parseTimeout(text: string): number {
  const ms = parseDuration(text);
  if (ms < 100 || ms > 3_600_000) throw new Error('must be from 100ms to 1h');
  return ms;
}

/** A retention: at least a minute, at most ten years. */
function parseRetention(text: string): number {
  const ms = parseDuration(text);
  if (ms < 60_000 || ms > 3_650 * 86_400_000) throw new Error('must be from 1m to 3650d');
  return ms;
}

/** A backup period: from a second (tests) to a year. */
function parseBackupPeriod(text: string): number {
  const ms = parseDuration(text);
  if (ms < 1_000 || ms > 365 * 86_400_000) throw new Error('must be from 1s to 365d');
  return ms;
}

function formIpMode(text: string): FormIpMode {
  const mode = formIpModes.find((candidate) => candidate === text);
  if (!mode) throw new Error(`must be one of ${formIpModes.join(', ')}`);
  return mode;
}

/** `forms@example.com` or `Forms <forms@example.com>`. */
function mailFrom(text: string): string | undefined {
  if (text.trim() === '') return undefined;
  const match = /^\s*(?:[^<>]*<([^<>]+)>|([^<>\s]+))\s*$/.exec(text);
  const address = match?.[1] ?? match?.[2];
  if (address === undefined || !isValidEmail(address.trim())) throw new Error('must be an email address, or a name with the address in <>');
  return text.trim();
}

export const serveFlags: readonly ServeFlag[] = [
  { flag: '--host', value: '<host>', env: 'SVC_HOST', defaultValue: '127.0.0.1', description: 'listen address', apply: (text, draft) => void (draft.host = text) },
  { flag: '--port', value: '<port>', env: 'SVC_PORT', defaultValue: '8787', description: 'listen port; 0 picks a free one', apply: (text, draft) => void (draft.port = parseCount(text, 0, 65_535)) },
  { flag: '--data-dir', value: '<dir>', env: 'SVC_DATA_DIR', defaultValue: './.svc', description: 'SQLite file and stored files', apply: (text, draft, { cwd }) => void (draft.dataDir = resolve(cwd, text)) },
  { flag: '--database-url', value: '<url>', env: 'SVC_DATABASE_URL', description: 'postgres://… switches the store to PostgreSQL', apply: (text, draft) => void (draft.databaseUrl = emptyToUndefined(text)) },
  { flag: '--redis-url', value: '<url>', env: 'SVC_REDIS_URL', description: 'rate-limit state in Redis, shared by instances', apply: (text, draft) => void (draft.redisUrl = emptyToUndefined(text)) },
  { flag: '--base-url', value: '<url>', env: 'SVC_BASE_URL', description: 'public address of the CLI API and settings pages', apply: (text, draft) => void (draft.baseUrl = httpUrl(text)) },
  { flag: '--forms-url', value: '<url>', env: 'SVC_FORMS_URL', description: 'public address printed for form endpoints', apply: (text, draft) => void (draft.formsUrl = httpUrl(text)) },
  {
    flag: '--trust-proxy',
    value: '[hops|cidrs]',
    env: 'SVC_TRUST_PROXY',
    description: 'take the client IP from x-forwarded-for, as added by the trusted proxies: alone the connected peer, a hop count, or addresses/CIDRs',
    apply: (text, draft) => void (draft.trustProxy = parseProxyTrust(text)),
  },
  { flag: '--allow-private-targets', env: 'SVC_ALLOW_PRIVATE_TARGETS', description: 'let webhooks, repositories and builds\' install steps reach loopback and private addresses', apply: (text, draft) => void (draft.allowPrivateTargets = parseBoolean(text)) },
  { flag: '--webhook-concurrency', value: '<n>', env: 'SVC_WEBHOOK_CONCURRENCY', defaultValue: '8', description: 'delivery attempts one webhook may have in flight at once, per process', apply: (text, draft) => void (draft.webhookConcurrency = parseCount(text, 1, 10_000)) },
  { flag: '--project-concurrency', value: '<n>', env: 'SVC_PROJECT_CONCURRENCY', defaultValue: '16', description: 'delivery attempts the webhooks of one project may have in flight at once, per process', apply: (text, draft) => void (draft.projectConcurrency = parseCount(text, 1, 10_000)) },
  { flag: '--max-webhooks-per-project', value: '<n>', env: 'SVC_MAX_WEBHOOKS_PER_PROJECT', defaultValue: '25', description: 'webhooks one project may have', apply: (text, draft) => void (draft.maxWebhooksPerProject = parseCount(text, 1, 10_000)) },
  { flag: '--retention-deliveries', value: '<duration>', env: 'SVC_RETENTION_DELIVERIES', defaultValue: '30d', description: 'finished webhook deliveries, their attempts and events are removed after this', apply: (text, draft) => void (draft.retentionDeliveriesMs = parseRetention(text)) },
  { flag: '--retention-spam', value: '<duration>', env: 'SVC_RETENTION_SPAM', defaultValue: '30d', description: 'spam submissions and spam Pinpoints requests are removed after this', apply: (text, draft) => void (draft.retentionSpamMs = parseRetention(text)) },
  { flag: '--retention-audit', value: '<duration>', env: 'SVC_RETENTION_AUDIT', defaultValue: '400d', description: 'audit log entries are removed after this', apply: (text, draft) => void (draft.retentionAuditMs = parseRetention(text)) },
  { flag: '--upload-quota', value: '<size>', env: 'SVC_UPLOAD_QUOTA', defaultValue: '1GiB', description: 'bytes of form files and Pinpoints screenshots one project keeps; past it those uploads get 413 quota_exceeded', apply: size((draft, bytes) => (draft.uploadQuotaBytes = bytes)) },
  {
    flag: '--form-ip',
    value: '<mode>',
    env: 'SVC_FORM_IP',
    defaultValue: 'truncated',
    choices: formIpModes,
    description: 'client address kept with a submission: full, truncated (IPv4 /24, IPv6 /48) or none',
    apply: (text, draft) => void (draft.formIp = formIpMode(text)),
  },
  { flag: '--smtp-url', value: '<url>', env: 'SVC_SMTP_URL', description: 'SMTP server for notification emails, smtp[s]://user:pass@host:port', apply: (text, draft) => void (draft.smtpUrl = smtpUrl(text)) },
  { flag: '--mail-from', value: '<address>', env: 'SVC_MAIL_FROM', description: 'sender of notification emails, e.g. "Forms <forms@example.com>"', apply: (text, draft) => void (draft.mailFrom = mailFrom(text)) },
  { flag: '--invite-limit', value: '<limit>', env: 'SVC_INVITE_LIMIT', defaultValue: '100/1d', description: 'invitations one workspace may send, invites/window (each counts, emailed or not)', apply: (text, draft) => void (draft.invites = { ...draft.invites, perWorkspace: parseRateLimit(text) }) },
  { flag: '--invite-address-limit', value: '<limit>', env: 'SVC_INVITE_ADDRESS_LIMIT', defaultValue: '5/1d', description: 'invitations one email address may be sent by all workspaces together, invites/window', apply: (text, draft) => void (draft.invites = { ...draft.invites, perAddress: parseRateLimit(text) }) },
  { flag: '--turnstile-verify-url', value: '<url>', env: 'SVC_TURNSTILE_VERIFY_URL', defaultValue: 'https://challenges.cloudflare.com/turnstile/v0/siteverify', description: 'where Turnstile tokens are checked (a proxy, or a stub in tests)', apply: (text, draft) => void (draft.turnstileVerifyUrl = verifyUrl(text)) },
  { flag: '--hcaptcha-verify-url', value: '<url>', env: 'SVC_HCAPTCHA_VERIFY_URL', defaultValue: 'https://api.hcaptcha.com/siteverify', description: 'where hCaptcha tokens are checked (a proxy, or a stub in tests)', apply: (text, draft) => void (draft.hcaptchaVerifyUrl = verifyUrl(text)) },
  { flag: '--altcha-max-number', value: '<n>', env: 'SVC_ALTCHA_MAX_NUMBER', defaultValue: '100000', hidden: true, description: 'difficulty of ALTCHA challenges: the largest number a browser may have to try', apply: (text, draft) => void (draft.altchaMaxNumber = parseCount(text, 1_000, 10_000_000)) },
  { flag: '--challenge-rate-limit', value: '<limit>', env: 'SVC_CHALLENGE_RATE_LIMIT', defaultValue: '60/5m', hidden: true, description: 'ALTCHA challenges per client IP per form, requests/window', apply: (text, draft) => void (draft.challengeRateLimit = parseRateLimit(text)) },
  { flag: '--retry-schedule', value: '<delays>', env: 'SVC_RETRY_SCHEDULE', description: 'delays between delivery attempts, e.g. 1s,2s,4s,8s,16s', apply: (text, draft) => void (draft.retrySchedule = parseDurationList(text)) },
  {
    flag: '--role',
    value: '<role>',
    env: 'SVC_ROLE',
    defaultValue: 'all',
    choices: ['all', 'web', 'worker'],
    description: 'all, web (HTTP only) or worker (deliveries only)',
    apply: (text, draft) => {
      if (!['all', 'web', 'worker'].includes(text)) throw new Error('must be all, web or worker');
      draft.role = text as ServerRole;
    },
  },
  { flag: '--rate-limit', value: '<limit>', env: 'SVC_RATE_LIMIT', defaultValue: '30/5m', description: 'default form rate limit per IP per endpoint, requests/window', apply: (text, draft) => void (draft.rateLimit = parseRateLimit(text)) },
  { flag: '--cli-rate-limit', value: '<limit>', env: 'SVC_CLI_RATE_LIMIT', defaultValue: '600/1m', description: 'CLI API requests per token, requests/window', apply: (text, draft) => void (draft.cliRateLimit = parseRateLimit(text)) },
  { flag: '--max-json-body', value: '<size>', env: 'SVC_MAX_JSON_BODY', defaultValue: '1MiB', description: 'largest JSON submission', apply: size((draft, bytes) => (draft.limits = { ...draft.limits, jsonBodyBytes: bytes })) },
  { flag: '--max-files', value: '<n>', env: 'SVC_MAX_FILES', defaultValue: '10', description: 'most files in one multipart submission', apply: (text, draft) => void (draft.limits = { ...draft.limits, files: parseCount(text, 0, 1_000) }) },
  { flag: '--max-file-size', value: '<size>', env: 'SVC_MAX_FILE_SIZE', defaultValue: '10MiB', description: 'largest file', apply: size((draft, bytes) => (draft.limits = { ...draft.limits, fileBytes: bytes })) },
  { flag: '--max-held-file-size', value: '<size>', env: 'SVC_MAX_HELD_FILE_SIZE', defaultValue: '1MiB', description: 'files up to this size are committed with their submission, one sync per batch (0: each on its own)', apply: (text, draft) => void (draft.limits = { ...draft.limits, heldFileBytes: text.trim() === '0' ? 0 : parseSize(text) }) },
  { flag: '--max-multipart-body', value: '<size>', env: 'SVC_MAX_MULTIPART_BODY', defaultValue: '25MiB', description: 'largest multipart submission', apply: size((draft, bytes) => (draft.limits = { ...draft.limits, multipartBytes: bytes })) },
  { flag: '--max-fields', value: '<n>', env: 'SVC_MAX_FIELDS', defaultValue: '200', description: 'most fields in one submission', apply: (text, draft) => void (draft.limits = { ...draft.limits, fields: parseCount(text, 1, 10_000) }) },
  { flag: '--max-connections', value: '<n>', env: 'SVC_MAX_CONNECTIONS', defaultValue: '8192', description: 'open connections in all; more are closed on arrival', apply: (text, draft) => void (draft.connections = { ...draft.connections, maxConnections: parseCount(text, 1, 1_000_000) }) },
  { flag: '--max-connections-per-client', value: '<n>', env: 'SVC_MAX_CONNECTIONS_PER_CLIENT', defaultValue: '512', description: 'open connections from one address (trusted proxies excepted)', apply: (text, draft) => void (draft.connections = { ...draft.connections, maxConnectionsPerClient: parseCount(text, 1, 1_000_000) }) },
  { flag: '--headers-timeout', value: '<duration>', env: 'SVC_HEADERS_TIMEOUT', defaultValue: '10s', description: 'time a client has to send a request\'s headers', apply: (text, draft) => void (draft.connections = { ...draft.connections, headersTimeoutMs: parseTimeout(text) }) },
  { flag: '--request-timeout', value: '<duration>', env: 'SVC_REQUEST_TIMEOUT', defaultValue: '120s', description: 'time a client has to send a whole request, body included', apply: (text, draft) => void (draft.connections = { ...draft.connections, requestTimeoutMs: parseTimeout(text) }) },
  { flag: '--keep-alive-timeout', value: '<duration>', env: 'SVC_KEEP_ALIVE_TIMEOUT', defaultValue: '72s', description: 'an idle keep-alive connection is closed after this', apply: (text, draft) => void (draft.connections = { ...draft.connections, keepAliveTimeoutMs: parseTimeout(text) }) },
  { flag: '--idle-timeout', value: '<duration>', env: 'SVC_IDLE_TIMEOUT', defaultValue: '120s', description: 'a connection on which nothing moves is closed after this', apply: (text, draft) => void (draft.connections = { ...draft.connections, idleTimeoutMs: parseTimeout(text) }) },
  { flag: '--database-timeout', value: '<duration>', env: 'SVC_DATABASE_TIMEOUT', defaultValue: '5s', description: 'a database operation (connection, lock, statement) fails with 503 after this', apply: (text, draft) => void (draft.databaseTimeoutMs = parseTimeout(text)) },
  { flag: '--min-free-space', value: '<size>', env: 'SVC_MIN_FREE_SPACE', defaultValue: '64MiB', description: 'below this much free disk under the data dir, /healthz reports the storage full', apply: size((draft, bytes) => (draft.minFreeBytes = bytes)) },
  { flag: '--max-deploy-files', value: '<n>', env: 'SVC_MAX_DEPLOY_FILES', defaultValue: '20000', description: 'most files in one deploy', apply: (text, draft) => void (draft.deployLimits = { ...draft.deployLimits, files: parseCount(text, 1, 10_000_000) }) },
  { flag: '--max-deploy-size', value: '<size>', env: 'SVC_MAX_DEPLOY_SIZE', defaultValue: '1GiB', description: 'most bytes in one deploy, all files together', apply: size((draft, bytes) => (draft.deployLimits = { ...draft.deployLimits, bytes })) },
  { flag: '--max-deploy-file-size', value: '<size>', env: 'SVC_MAX_DEPLOY_FILE_SIZE', defaultValue: '100MiB', description: 'largest file of a deploy', apply: size((draft, bytes) => (draft.deployLimits = { ...draft.deployLimits, fileBytes: bytes })) },
  { flag: '--preview-domain', value: '<domain>', env: 'SVC_PREVIEW_DOMAIN', defaultValue: 'localhost', description: 'each deploy answers at {deploy id}.{this domain}', apply: (text, draft) => void (draft.previewDomain = parseDomain(text)) },
  { flag: '--deploy-timeout', value: '<duration>', env: 'SVC_DEPLOY_TIMEOUT', defaultValue: '10m', description: 'a deploy whose upload makes no progress this long is marked failed', apply: (text, draft) => void (draft.deployTimeoutMs = parseDuration(text)) },
  { flag: '--build-concurrency', value: '<n>', env: 'SVC_BUILD_CONCURRENCY', defaultValue: '1', description: 'builds from git this instance runs at once (roles all and worker)', apply: (text, draft) => void (draft.builds = { ...draft.builds, concurrency: parseCount(text, 1, 64) }) },
  { flag: '--build-timeout', value: '<duration>', env: 'SVC_BUILD_TIMEOUT', defaultValue: '15m', description: 'a build running longer is killed with every process it started, and fails', apply: (text, draft) => void (draft.builds = { ...draft.builds, timeoutMs: parseDuration(text) }) },
  {
    flag: '--build-sandbox',
    value: '<mode>',
    env: 'SVC_BUILD_SANDBOX',
    defaultValue: 'auto',
    choices: ['auto', 'bwrap', 'none'],
    description: 'auto, bwrap or none: how a build is kept from the server (none runs repository code unconfined)',
    apply: (text, draft) => {
      if (text !== 'auto' && text !== 'bwrap' && text !== 'none') throw new Error('must be auto, bwrap or none');
      draft.builds = { ...draft.builds, sandbox: text };
    },
  },
  { flag: '--build-memory', value: '<size>', env: 'SVC_BUILD_MEMORY', defaultValue: '2GiB', description: 'memory cap of one build; past it the build fails saying so', apply: size((draft, bytes) => (draft.builds = { ...draft.builds, memoryBytes: bytes })) },
  { flag: '--build-network', env: 'SVC_BUILD_NETWORK', description: "give the repository's build step the host's network (installing reaches only what the address policy allows, through the server's egress proxy); it can then reach what listens on this host", apply: (text, draft) => void (draft.builds = { ...draft.builds, network: parseBoolean(text) }) },
  { flag: '--build-dir', value: '<dir>', env: 'SVC_BUILD_DIR', description: 'where builds work and projects\' git caches are kept (default <data-dir>/builds); may be another file system than the data dir', apply: (text, draft, { cwd }) => void (draft.builds = { ...draft.builds, directory: text === '' ? null : resolve(cwd, text) }) },
  { flag: '--build-disk', value: '<size>', env: 'SVC_BUILD_DISK', defaultValue: '2GiB', description: 'disk one build may use (its checkout, node_modules, output, fetch); past it the build fails saying so', apply: size((draft, bytes) => (draft.builds = { ...draft.builds, diskBytes: bytes })) },
  { flag: '--build-min-free', value: '<size>', env: 'SVC_BUILD_MIN_FREE', defaultValue: '1GiB', description: 'a build stops when the build dir\'s or the data dir\'s file system has less free space than this', apply: size((draft, bytes) => (draft.builds = { ...draft.builds, minFreeBytes: bytes })) },
  { flag: '--build-git-cache', value: '<size>', env: 'SVC_BUILD_GIT_CACHE', defaultValue: '1GiB', description: 'a project\'s git cache larger than this after a build (pruned) is removed', apply: size((draft, bytes) => (draft.builds = { ...draft.builds, gitCacheBytes: bytes })) },
  { flag: '--builds-per-workspace', value: '<n>', env: 'SVC_BUILDS_PER_WORKSPACE', defaultValue: '10', description: 'running and queued builds one workspace may have; a push or hook call past it is refused (429 too_many_builds)', apply: (text, draft) => void (draft.builds = { ...draft.builds, perWorkspace: parseCount(text, 1, 10_000) }) },
  {
    flag: '--allow-local-repos',
    env: 'SVC_ALLOW_LOCAL_REPOS',
    description: 'accept file:// URLs and local paths as repositories: every tenant can then build any repository this machine holds (development and tests only)',
    apply: (text, draft) => void (draft.builds = { ...draft.builds, allowLocalRepos: parseBoolean(text) }),
  },
  { flag: '--build-lease', value: '<duration>', env: 'SVC_BUILD_LEASE', defaultValue: '60s', hidden: true, description: 'a running build not renewed this long was left by a stopped server', apply: (text, draft) => void (draft.builds = { ...draft.builds, leaseMs: parseDuration(text) }) },
  { flag: '--build-poll-interval', value: '<duration>', env: 'SVC_BUILD_POLL_INTERVAL', defaultValue: '5s', hidden: true, description: 'safety-net poll of the build worker', apply: (text, draft) => void (draft.builds = { ...draft.builds, pollIntervalMs: parseDuration(text) }) },
  { flag: '--backup-dir', value: '<dir>', env: 'SVC_BACKUP_DIR', description: 'take scheduled backups into this directory (svc backup archives, written atomically)', apply: (text, draft, { cwd }) => void (draft.backups = { ...draft.backups, directory: text === '' ? null : resolve(cwd, text) }) },
  { flag: '--backup-every', value: '<duration>', env: 'SVC_BACKUP_EVERY', defaultValue: '24h', description: 'how often a scheduled backup is taken (with --backup-dir)', apply: (text, draft) => void (draft.backups = { ...draft.backups, everyMs: parseBackupPeriod(text) }) },
  { flag: '--backup-keep', value: '<n>', env: 'SVC_BACKUP_KEEP', defaultValue: '7', description: 'scheduled backups kept; the oldest beyond this are removed', apply: (text, draft) => void (draft.backups = { ...draft.backups, keep: parseCount(text, 1, 10_000) }) },
  {
    flag: '--log-level',
    value: '<level>',
    env: 'SVC_LOG_LEVEL',
    defaultValue: 'info',
    choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    description: 'fatal, error, warn, info, debug or trace',
    apply: (text, draft) => void (draft.logLevel = text),
  },
  { flag: '--auth-failure-limit', value: '<limit>', env: 'SVC_AUTH_FAILURE_LIMIT', defaultValue: '20/5m', hidden: true, description: 'failed authentications per client address before 429, requests/window', apply: (text, draft) => void (draft.authFailureLimit = parseRateLimit(text)) },
  { flag: '--maintenance-interval', value: '<duration>', env: 'SVC_MAINTENANCE_INTERVAL', defaultValue: '1h', hidden: true, description: 'how often clean-up and retention run', apply: (text, draft) => void (draft.maintenanceIntervalMs = parseDuration(text)) },
  { flag: '--sweep-grace', value: '<duration>', env: 'SVC_SWEEP_GRACE', defaultValue: '1h', hidden: true, description: 'stored contents nothing holds are removed once last stored this long ago', apply: (text, draft) => void (draft.sweepGraceMs = parseDuration(text)) },
  { flag: '--webhook-failure-window', value: '<duration>', env: 'SVC_WEBHOOK_FAILURE_WINDOW', defaultValue: '5d', hidden: true, description: 'a webhook whose attempts all failed this long is disabled', apply: (text, draft) => void (draft.webhookFailureWindowMs = parseDuration(text)) },
  { flag: '--rate-limit-keys', value: '<n>', env: 'SVC_RATE_LIMIT_KEYS', defaultValue: '100000', hidden: true, description: 'windows each rate limit keeps in memory; past it the oldest are dropped', apply: (text, draft) => void (draft.rateLimitKeys = parseCount(text, 1, 10_000_000)) },
  { flag: '--redis-prefix', value: '<prefix>', env: 'SVC_REDIS_PREFIX', defaultValue: 'svc:', hidden: true, description: 'prefix of every Redis key', apply: (text, draft) => void (draft.redisPrefix = text) },
  { flag: '--idempotency-window', value: '<duration>', env: 'SVC_IDEMPOTENCY_WINDOW', defaultValue: '24h', hidden: true, description: 'how long idempotency keys are remembered', apply: (text, draft) => void (draft.idempotencyWindowMs = parseDuration(text)) },
  { flag: '--delivery-timeout', value: '<duration>', env: 'SVC_DELIVERY_TIMEOUT', defaultValue: '10s', hidden: true, description: 'one webhook delivery attempt, connect to end of answer', apply: (text, draft) => void (draft.deliveryTimeoutMs = parseDuration(text)) },
  { flag: '--delivery-lease', value: '<duration>', env: 'SVC_DELIVERY_LEASE', defaultValue: '60s', hidden: true, description: 'how long a worker holds a claimed delivery; timeout + 1s at least', apply: (text, draft) => void (draft.deliveryLeaseMs = parseDuration(text)) },
  { flag: '--delivery-poll-interval', value: '<duration>', env: 'SVC_DELIVERY_POLL_INTERVAL', defaultValue: '30s', hidden: true, description: 'safety-net poll of the delivery worker', apply: (text, draft) => void (draft.deliveryPollIntervalMs = parseDuration(text)) },
  { flag: '--health-interval', value: '<duration>', env: 'SVC_HEALTH_INTERVAL', defaultValue: '1s', hidden: true, description: 'how often the database, the storage and Redis are probed', apply: (text, draft) => void (draft.healthIntervalMs = parseTimeout(text)) },
  { flag: '--delivery-concurrency', value: '<n>', env: 'SVC_DELIVERY_CONCURRENCY', defaultValue: '64', hidden: true, description: 'delivery requests in flight per process', apply: (text, draft) => void (draft.deliveryConcurrency = parseCount(text, 1, 10_000)) },
];

/** The camelCase key a flag has in a parsed command line (`--data-dir` → `dataDir`). */
export function flagKey(flag: string): string {
  return flag.slice(2).replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

export class ServeFlagError extends Error {
  constructor(
    readonly flag: string,
    problem: string,
  ) {
    super(`${flag}: ${problem}`);
  }
}

/**
 * `svc serve`'s options from its command line and environment: for each option, the flag
 * if given, else its environment variable, else its default. A switch given on the command
 * line is on; its variable takes `true`/`false`. Environment-only settings
 * (`SVC_ENCRYPTION_KEY`, `SVC_BOOTSTRAP_TOKEN`) are read here too: a key on the command line
 * would show in `ps`.
 */
export function resolveServeOptions(given: Readonly<Record<string, unknown>>, env: Readonly<Record<string, string | undefined>>, cwd: string): ServerOptions {
  const draft = { ...serverOptions({ dataDir: resolve(cwd, './.svc') }) } as Draft;
  for (const option of serveFlags) {
    const fromFlag = given[flagKey(option.flag)];
    const text = fromFlag === true ? 'true' : typeof fromFlag === 'string' ? fromFlag : (env[option.env] ?? option.defaultValue);
    if (text === undefined || (option.value === undefined && text === '')) continue;
    try {
      option.apply(text, draft, { cwd });
    } catch (error) {
      throw new ServeFlagError(option.flag, (error as Error).message);
    }
  }
  const key = env['SVC_ENCRYPTION_KEY'];
  if (key) {
    try {
      draft.encryptionKey = parseEncryptionKey(key);
    } catch (error) {
      throw new ServeFlagError('SVC_ENCRYPTION_KEY', (error as Error).message);
    }
  }
  draft.bootstrapToken = emptyToUndefined(env['SVC_BOOTSTRAP_TOKEN'] ?? '');
  if (draft.bootstrapToken !== undefined && !/^[\x21-\x7e]{32,512}$/.test(draft.bootstrapToken)) {
    // An admin token as guessable as `a` would open everything: as strong as the tokens the server makes, or refused.
    throw new ServeFlagError('SVC_BOOTSTRAP_TOKEN', 'must be 32 to 512 printable characters without spaces, as random as `openssl rand -hex 32`');
  }
  if (draft.connections.headersTimeoutMs > draft.connections.requestTimeoutMs) {
    throw new ServeFlagError('--headers-timeout', 'must not be longer than --request-timeout');
  }
  if ((draft.smtpUrl === undefined) !== (draft.mailFrom === undefined)) {
    throw new ServeFlagError(draft.smtpUrl === undefined ? '--mail-from' : '--smtp-url', 'notification emails need both --smtp-url and --mail-from');
  }
  return draft;
}
