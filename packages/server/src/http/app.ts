import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Metrics } from '../observability/metrics.js';
import { sendError } from './error-replies.js';
import { clientErrorHandler, frameworkErrorHandler, installProtocolGuards } from './protocol-errors.js';

export interface AppOptions {
  readonly logger: FastifyBaseLogger;
  /** Take the client IP from the first `x-forwarded-for` hop (`--trust-proxy`). */
  readonly trustProxy: boolean;
}

/** A plugin that adds routes to the app: the form endpoint, public routes, the CLI API… */
export type RoutePlugin = (app: FastifyInstance) => Promise<void>;

/**
 * The HTTP server shell: error and 404 answers, metrics, protocol guards. Which routes it
 * serves is the caller's choice (`svc serve --role` decides), given as plugins.
 */
export async function buildApp(metrics: Metrics, options: AppOptions, plugins: readonly RoutePlugin[]): Promise<FastifyInstance> {
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
    // Requests refused before routing get documented answers too (http/protocol-errors.ts).
    clientErrorHandler,
    frameworkErrors: frameworkErrorHandler,
  });
  installProtocolGuards(app.server);

  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.requests.inc({ route, method: request.method, status: String(reply.statusCode) });
    metrics.latency.observe({ route }, reply.elapsedTime / 1000);
    done();
  });
  app.setErrorHandler((error, request, reply) => sendError(request, reply, error, false));
  // Everything without a route, the planned /v1 API included, does not exist.
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ ok: false, error: 'not_found' }));

  for (const plugin of plugins) await app.register(plugin);
  return app;
}
