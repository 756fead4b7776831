import { resolve } from 'node:path';
import { ServiceError } from '@svc/protocol';
import type * as ServerModule from '@svc/server';
import type { ServerOptions } from '@svc/server';
import type { CommandContext } from '../../command.js';

export interface ServeFlags {
  host: string;
  port: string;
  dataDir: string;
  databaseUrl?: string;
  redisUrl?: string;
  baseUrl?: string;
  formsUrl?: string;
  trustProxy?: boolean;
  allowPrivateTargets?: boolean;
  retrySchedule?: string;
  role: 'all' | 'web' | 'worker';
  rateLimit: string;
  cliRateLimit: string;
  maxJsonBody: string;
  maxFiles: string;
  maxFileSize: string;
  maxMultipartBody: string;
  maxFields: string;
  logLevel: string;
  redisPrefix: string;
  idempotencyWindow: string;
  deliveryTimeout: string;
  deliveryLease: string;
  deliveryPollInterval: string;
  deliveryConcurrency: string;
}

export async function runServe({ options: flags, io, out }: CommandContext<ServeFlags>): Promise<number> {
  // Loaded here so that other commands start without the server's dependencies.
  const server = await import('@svc/server');
  const options = toServerOptions(flags, io.env, io.cwd, server);
  // Listen for signals before starting, so that one arriving at any moment is honoured.
  const signalled = untilSignalled();
  const running = await server.startServer(options);

  const ready = { event: 'listening', url: running.url, baseUrl: running.baseUrl, formsUrl: running.formsUrl };
  out.result(running.adminToken ? { ...ready, adminToken: running.adminToken } : ready, () => {
    const lines = [`listening on ${running.url}`];
    if (running.adminToken) {
      lines.push('', 'Created an admin token. It is shown only this once; keep it somewhere safe:', `  ${running.adminToken}`);
    }
    return lines.join('\n');
  });

  await signalled;
  out.note('shutting down: finishing requests and deliveries in flight');
  await running.close();
  return 0;
}

function untilSignalled(): Promise<void> {
  return new Promise((resolveSignal) => {
    const stop = (): void => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      // A second signal while draining ends the process at once.
      process.once('SIGINT', () => process.exit(130));
      resolveSignal();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}

function toServerOptions(flags: ServeFlags, env: CommandContext<ServeFlags>['io']['env'], cwd: string, server: typeof ServerModule): ServerOptions {
  const parse = <T>(flag: string, read: () => T): T => {
    try {
      return read();
    } catch (error) {
      throw new ServiceError('usage', `${flag}: ${(error as Error).message}`);
    }
  };
  const flagOrEnv = (flag: boolean | undefined, name: string, envName: string): boolean =>
    flag === true || parse(name, () => server.parseBoolean(env[envName] ?? ''));
  const limits = {
    ...server.defaultFormLimits,
    jsonBodyBytes: parse('--max-json-body', () => server.parseSize(flags.maxJsonBody)),
    files: parse('--max-files', () => server.parseCount(flags.maxFiles, 0, 1_000)),
    fileBytes: parse('--max-file-size', () => server.parseSize(flags.maxFileSize)),
    multipartBytes: parse('--max-multipart-body', () => server.parseSize(flags.maxMultipartBody)),
    fields: parse('--max-fields', () => server.parseCount(flags.maxFields, 1, 10_000)),
  };
  return server.serverOptions({
    host: flags.host,
    port: parse('--port', () => server.parseCount(flags.port, 0, 65_535)),
    dataDir: resolve(cwd, flags.dataDir),
    databaseUrl: emptyToUndefined(flags.databaseUrl),
    redisUrl: emptyToUndefined(flags.redisUrl),
    redisPrefix: flags.redisPrefix,
    baseUrl: parse('--base-url', () => httpUrl(flags.baseUrl)),
    formsUrl: parse('--forms-url', () => httpUrl(flags.formsUrl)),
    trustProxy: flagOrEnv(flags.trustProxy, '--trust-proxy', 'SVC_TRUST_PROXY'),
    allowPrivateTargets: flagOrEnv(flags.allowPrivateTargets, '--allow-private-targets', 'SVC_ALLOW_PRIVATE_TARGETS'),
    retrySchedule: flags.retrySchedule === undefined ? undefined : parse('--retry-schedule', () => server.parseDurationList(flags.retrySchedule!)),
    // An environment variable only: a key on the command line would show in `ps`.
    encryptionKey: env['SVC_ENCRYPTION_KEY'] ? parse('SVC_ENCRYPTION_KEY', () => server.parseEncryptionKey(env['SVC_ENCRYPTION_KEY']!)) : undefined,
    deliveryTimeoutMs: parse('--delivery-timeout', () => server.parseDuration(flags.deliveryTimeout)),
    deliveryLeaseMs: parse('--delivery-lease', () => server.parseDuration(flags.deliveryLease)),
    deliveryPollIntervalMs: parse('--delivery-poll-interval', () => server.parseDuration(flags.deliveryPollInterval)),
    deliveryConcurrency: parse('--delivery-concurrency', () => server.parseCount(flags.deliveryConcurrency, 1, 10_000)),
    role: flags.role,
    bootstrapToken: emptyToUndefined(env['SVC_BOOTSTRAP_TOKEN']),
    limits,
    rateLimit: parse('--rate-limit', () => server.parsePolicy(flags.rateLimit)),
    cliRateLimit: parse('--cli-rate-limit', () => server.parsePolicy(flags.cliRateLimit)),
    idempotencyWindowMs: parse('--idempotency-window', () => server.parseDuration(flags.idempotencyWindow)),
    logLevel: flags.logLevel,
  });
}

function emptyToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function httpUrl(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  const url = new URL(value);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('must be an http:// or https:// URL');
  return value.replace(/\/+$/, '');
}
