import { ServiceError } from '@svc/protocol';
import { defineCommand } from '../../command.js';
import { runServe, type ServeFlags } from './run-serve.js';

export const serveCommand = defineCommand<ServeFlags>({
  name: 'serve',
  summary: 'run the server: form endpoint, webhook delivery, CLI API',
  description: `Run the server. With no flags it uses the embedded SQLite database under ./.svc.
Every flag can also be given as the environment variable shown.
SVC_ENCRYPTION_KEY (base64 of 32 bytes) encrypts webhook signing secrets; without it the key
is <data-dir>/encryption.key. Instances that share a database must share SVC_ENCRYPTION_KEY.`,
  options: [
    { flags: '--host <host>', description: 'listen address (SVC_HOST)', env: 'SVC_HOST', defaultValue: '127.0.0.1' },
    { flags: '--port <port>', description: 'listen port; 0 picks a free one (SVC_PORT)', env: 'SVC_PORT', defaultValue: '8787' },
    { flags: '--data-dir <dir>', description: 'SQLite file and stored files (SVC_DATA_DIR)', env: 'SVC_DATA_DIR', defaultValue: './.svc' },
    { flags: '--database-url <url>', description: 'postgres://… switches the store to PostgreSQL (SVC_DATABASE_URL)', env: 'SVC_DATABASE_URL' },
    { flags: '--redis-url <url>', description: 'rate-limit state in Redis, shared by instances (SVC_REDIS_URL)', env: 'SVC_REDIS_URL' },
    { flags: '--base-url <url>', description: 'public address of the CLI API and settings pages (SVC_BASE_URL)', env: 'SVC_BASE_URL' },
    { flags: '--forms-url <url>', description: 'public address printed for form endpoints (SVC_FORMS_URL)', env: 'SVC_FORMS_URL' },
    { flags: '--trust-proxy', description: 'take the client IP from x-forwarded-for (SVC_TRUST_PROXY=true)' },
    { flags: '--allow-private-targets', description: 'let webhooks reach loopback and private addresses (SVC_ALLOW_PRIVATE_TARGETS=true)' },
    { flags: '--retry-schedule <delays>', description: 'delays between delivery attempts, e.g. 1s,2s,4s,8s,16s (SVC_RETRY_SCHEDULE)', env: 'SVC_RETRY_SCHEDULE' },
    { flags: '--role <role>', description: 'all, web (HTTP only) or worker (deliveries only) (SVC_ROLE)', env: 'SVC_ROLE', defaultValue: 'all', choices: ['all', 'web', 'worker'] },
    { flags: '--rate-limit <limit>', description: 'default form rate limit per IP per endpoint, requests/window (SVC_RATE_LIMIT)', env: 'SVC_RATE_LIMIT', defaultValue: '30/5m' },
    { flags: '--cli-rate-limit <limit>', description: 'CLI API requests per token, requests/window (SVC_CLI_RATE_LIMIT)', env: 'SVC_CLI_RATE_LIMIT', defaultValue: '600/1m' },
    { flags: '--max-json-body <size>', description: 'largest JSON submission (SVC_MAX_JSON_BODY)', env: 'SVC_MAX_JSON_BODY', defaultValue: '1MiB' },
    { flags: '--max-files <n>', description: 'most files in one multipart submission (SVC_MAX_FILES)', env: 'SVC_MAX_FILES', defaultValue: '10' },
    { flags: '--max-file-size <size>', description: 'largest file (SVC_MAX_FILE_SIZE)', env: 'SVC_MAX_FILE_SIZE', defaultValue: '10MiB' },
    { flags: '--max-multipart-body <size>', description: 'largest multipart submission (SVC_MAX_MULTIPART_BODY)', env: 'SVC_MAX_MULTIPART_BODY', defaultValue: '25MiB' },
    { flags: '--max-fields <n>', description: 'most fields in one submission (SVC_MAX_FIELDS)', env: 'SVC_MAX_FIELDS', defaultValue: '200' },
    { flags: '--log-level <level>', description: 'fatal, error, warn, info, debug or trace (SVC_LOG_LEVEL)', env: 'SVC_LOG_LEVEL', defaultValue: 'info', choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] },
    { flags: '--redis-prefix <prefix>', description: 'prefix of every Redis key (SVC_REDIS_PREFIX)', env: 'SVC_REDIS_PREFIX', defaultValue: 'svc:', hidden: true },
    { flags: '--idempotency-window <duration>', description: 'how long idempotency keys are remembered (SVC_IDEMPOTENCY_WINDOW)', env: 'SVC_IDEMPOTENCY_WINDOW', defaultValue: '24h', hidden: true },
    { flags: '--delivery-timeout <duration>', description: 'one webhook delivery attempt, connect to end of answer (SVC_DELIVERY_TIMEOUT)', env: 'SVC_DELIVERY_TIMEOUT', defaultValue: '10s', hidden: true },
    { flags: '--delivery-lease <duration>', description: 'how long a worker holds a claimed delivery; timeout + 1s at least (SVC_DELIVERY_LEASE)', env: 'SVC_DELIVERY_LEASE', defaultValue: '60s', hidden: true },
    { flags: '--delivery-poll-interval <duration>', description: 'safety-net poll of the delivery worker (SVC_DELIVERY_POLL_INTERVAL)', env: 'SVC_DELIVERY_POLL_INTERVAL', defaultValue: '30s', hidden: true },
    { flags: '--delivery-concurrency <n>', description: 'delivery requests in flight per process (SVC_DELIVERY_CONCURRENCY)', env: 'SVC_DELIVERY_CONCURRENCY', defaultValue: '64', hidden: true },
  ],
  examples: [
    'svc serve',
    'svc serve --port 0 --data-dir /var/lib/svc',
    'svc serve --database-url postgres://svc@db/svc --redis-url redis://cache:6379 --host 0.0.0.0 --trust-proxy',
    'SVC_BOOTSTRAP_TOKEN=$(openssl rand -hex 32) svc serve --json',
  ],
  async run(context) {
    try {
      return await runServe(context);
    } catch (error) {
      if (error instanceof ServiceError) throw error;
      throw new ServiceError('unavailable', `the server could not start: ${(error as Error).message}`, undefined, { cause: error });
    }
  },
});
