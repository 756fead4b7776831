import { defaultFormLimits, idempotencyWindowMs, type FormLimits } from './forms/limits.js';
import { defaultFormPolicy, type RateLimitPolicy } from './ratelimit/policy.js';

export type ServerRole = 'all' | 'web' | 'worker';

/** Everything `svc serve` can be told (DESIGN.md §2), resolved and typed. */
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
  readonly trustProxy: boolean;
  readonly allowPrivateTargets: boolean;
  /** Delays between delivery attempts, in milliseconds; undefined keeps the default. */
  readonly retrySchedule: readonly number[] | undefined;
  readonly role: ServerRole;
  readonly bootstrapToken: string | undefined;
  readonly limits: FormLimits;
  readonly rateLimit: RateLimitPolicy;
  readonly idempotencyWindowMs: number;
  /** How long a form looked up by endpoint id is cached. */
  readonly formCacheTtlMs: number;
  readonly logLevel: string;
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
    trustProxy: false,
    allowPrivateTargets: false,
    retrySchedule: undefined,
    role: 'all',
    bootstrapToken: undefined,
    limits: defaultFormLimits,
    rateLimit: defaultFormPolicy,
    idempotencyWindowMs,
    formCacheTtlMs: 5_000,
    logLevel: 'info',
    ...overrides,
  };
}
