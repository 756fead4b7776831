import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from '../observability/metrics.js';
import type { Store } from '../store/store.js';

export interface PublicRouteServices {
  readonly store: Store;
  readonly metrics: Metrics;
  /** Extra readiness checks (Redis, say) that report but do not fail the check. */
  readonly dependencies?: Readonly<Record<string, () => Promise<void>>>;
}

/** `GET /healthz`, `GET /metrics` and `GET /schema/service.json`. */
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

  app.get('/healthz', async (request, reply) => {
    const checks: Record<string, string> = {};
    try {
      await services.store.ping();
      checks['database'] = 'ok';
    } catch (error) {
      request.log.error({ err: error }, 'health check: database failed');
      return reply.code(503).send({ ok: false, error: 'unavailable', checks: { database: 'unavailable' } });
    }
    for (const [name, check] of Object.entries(services.dependencies ?? {})) {
      checks[name] = await check().then(
        () => 'ok',
        () => 'unavailable',
      );
    }
    return { ok: true, checks };
  });

  app.get('/metrics', async (_request, reply) =>
    reply.header('content-type', services.metrics.registry.contentType).send(await services.metrics.registry.metrics()),
  );
}
