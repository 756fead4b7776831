// One load run in its own process, so load generation never shares an event loop with what
// it measures: `node load-runner.js '<json LoadRunConfig>'` prints one JSON LoadRunResult.
import autocannon from 'autocannon';
import { jsonBody, multipartTemplate, stampFile, type LoadShape } from './load-shapes.js';

export interface LoadRunConfig {
  readonly url: string;
  readonly shape: LoadShape;
  readonly connections: number;
  readonly durationSeconds: number;
  /** Makes idempotency keys (and file contents) unique across runs against one server. */
  readonly tag: string;
  /** GET requests with this Host header instead of form posts (the hosting bench). */
  readonly get?: { readonly host: string };
}

export interface LoadRunResult {
  readonly durationSeconds: number;
  readonly completed: number;
  readonly ok: number;
  readonly requestsPerSecond: number;
  readonly latencyMs: { readonly p50: number; readonly p90: number; readonly p99: number; readonly max: number; readonly mean: number };
  readonly errors: number;
  readonly timeouts: number;
  readonly statusCodes: Record<string, number>;
}

export async function runLoad(config: LoadRunConfig): Promise<LoadRunResult> {
  let counter = 0;
  const key = (): string => `${config.tag}-${(counter++).toString(36)}`;
  const template = config.shape === 'multipart' ? multipartTemplate() : null;
  const result = await autocannon({
    url: config.url,
    connections: config.connections,
    duration: config.durationSeconds,
    timeout: 30,
    ...(config.get ? { method: 'GET', headers: { host: config.get.host } } : {}),
    requests: config.get ? [{ method: 'GET' }] : [
      {
        method: 'POST',
        setupRequest: (request) => {
          const idempotencyKey = key();
          if (template === null) {
            return { ...request, headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey }, body: jsonBody };
          }
          return {
            ...request,
            headers: { 'content-type': template.contentType, 'idempotency-key': idempotencyKey },
            body: stampFile(template.body, template.stampAt, idempotencyKey),
          };
        },
      },
    ],
  });
  const statusCodes: Record<string, number> = {};
  for (const [status, { count }] of Object.entries(result.statusCodeStats)) statusCodes[status] = count;
  const completed = Object.values(statusCodes).reduce((sum, count) => sum + count, 0);
  return {
    durationSeconds: result.duration,
    completed,
    ok: result['2xx'],
    requestsPerSecond: result['2xx'] / result.duration,
    latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max, mean: result.latency.mean },
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
  };
}

if (process.argv[2] !== undefined) {
  const config = JSON.parse(process.argv[2]) as LoadRunConfig;
  process.stdout.write(`${JSON.stringify(await runLoad(config))}\n`);
}
