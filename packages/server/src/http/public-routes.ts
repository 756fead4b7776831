import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { eventJsonSchema, eventTypes, isEventType } from '@svc/protocol';
import type { FastifyInstance } from 'fastify';
import { unavailableRetryAfterSeconds, type DependencyHealth } from '../health/dependency-health.js';
import type { Metrics } from '../observability/metrics.js';
import type { BackupStatus } from '../observability/backup-status.js';

export interface PublicRouteServices {
  /** What the health monitor and the request path last found about each dependency. */
  readonly health: DependencyHealth;
  readonly metrics: Metrics;
  /** The public addresses, known once the server listens: the schemas' `$id`s name the base URL. */
  readonly urls: { readonly baseUrl: string };
  /** What the scheduled backups last did, when `--backup-dir` is set (docs/server.md, "Scheduled backups"). */
  readonly backups?: BackupStatus | undefined;
}

/** `GET /healthz`, `GET /metrics`, `GET /schema/service.json` and `GET /schema/events/{type}.json`. */
// The schema file itself: importing @svc/config would load its validator, which the server
// needs only when a configuration is applied.
const schemaPath = createRequire(import.meta.url).resolve('@svc/config/schema.json');

export async function publicRoutes(app: FastifyInstance, services: PublicRouteServices): Promise<void> {
  const schema = await readFile(schemaPath, 'utf8');

  app.get('/schema/service.json', (_request, reply) =>
    reply
      .header('content-type', 'application/schema+json; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('access-control-allow-origin', '*')
      .send(schema),
  );

  // One JSON Schema per event type, made from the event catalog the payloads are typed by (docs/webhooks.md).
  const eventSchemas = new Map<string, string>();
  app.get<{ Params: { file: string } }>('/schema/events/:file', (request, reply) => {
    const type = request.params.file.endsWith('.json') ? request.params.file.slice(0, -'.json'.length) : '';
    if (!isEventType(type)) {
      return reply.code(404).send({ ok: false, error: 'not_found', message: `no event type "${type || request.params.file}"; the types are ${eventTypes.join(', ')}` });
    }
    let text = eventSchemas.get(type);
    if (text === undefined) {
      text = JSON.stringify(eventJsonSchema(type, `${services.urls.baseUrl}/schema/events/${type}.json`), null, 2);
      if (services.urls.baseUrl !== '') eventSchemas.set(type, text);
    }
    return reply
      .header('content-type', 'application/schema+json; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('access-control-allow-origin', '*')
      .send(text);
  });

  // Answered from what the monitor last found (it probes every second, each probe bounded),
  // so it never waits on a dependency: 503 exactly when a submission cannot be stored now.
  app.get('/healthz', (_request, reply) => {
    const { ok, checks } = services.health.report();
    // A failed backup is reported, but a submission can still be stored: it never makes this 503.
    const backup = services.backups ? { backup: services.backups.report() } : {};
    void reply.header('cache-control', 'no-store');
    if (ok) return reply.send({ ok: true, checks, ...backup });
    return reply.code(503).header('retry-after', String(unavailableRetryAfterSeconds)).send({ ok: false, error: 'unavailable', retryAfter: unavailableRetryAfterSeconds, checks, ...backup });
  });

  app.get('/metrics', async (_request, reply) =>
    reply.header('content-type', services.metrics.registry.contentType).send(await services.metrics.registry.metrics()),
  );
}
