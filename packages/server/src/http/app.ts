import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { formRoutes, type FormRouteServices } from './form-routes.js';
import { publicRoutes, type PublicRouteServices } from './public-routes.js';
import { sendError } from './error-replies.js';

export interface AppOptions {
  readonly logger: FastifyBaseLogger;
  /** Take the client IP from the first `x-forwarded-for` hop (`--trust-proxy`). */
  readonly trustProxy: boolean;
}

export type AppServices = FormRouteServices & PublicRouteServices;

/** A plugin that adds routes to the app (the CLI API, settings pages…), registered last. */
export type RoutePlugin = (app: FastifyInstance) => Promise<void>;

export async function buildApp(services: AppServices, options: AppOptions, plugins: readonly RoutePlugin[] = []): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: options.logger,
    // No per-request log lines: at thousands of submissions a second they would cost more
    // than the work; /metrics counts requests and errors are logged where they happen.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: options.trustProxy,
    requestTimeout: 120_000,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
  });

  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    services.metrics.requests.inc({ route, method: request.method, status: String(reply.statusCode) });
    services.metrics.latency.observe({ route }, reply.elapsedTime / 1000);
    done();
  });
  app.setErrorHandler((error, request, reply) => sendError(request, reply, error, false));
  // Everything without a route, the planned /v1 API included, does not exist.
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ ok: false, error: 'not_found' }));

  await app.register(async (scope) => formRoutes(scope, services), { prefix: '/api/f' });
  await app.register(async (scope) => publicRoutes(scope, services));
  for (const plugin of plugins) await app.register(plugin);
  return app;
}
