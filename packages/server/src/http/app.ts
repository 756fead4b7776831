import type { ServiceError } from '@svc/protocol';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Metrics } from '../observability/metrics.js';
import { clientAddress, type ProxyTrust } from './client-address.js';
import { httpServerOptions, installConnectionPolicy, type ConnectionPolicy } from './connection-policy.js';
import { sendError } from './error-replies.js';
import { clientErrorHandler, frameworkErrorHandler, installProtocolGuards } from './protocol-errors.js';

export interface AppOptions {
  readonly logger: FastifyBaseLogger;
  /** Who may name the client in `x-forwarded-for` (`--trust-proxy`). */
  readonly trustProxy: ProxyTrust;
  readonly connections: ConnectionPolicy;
  /** A dependency's failure as the 503 it is answered with, else null. */
  readonly asUnavailable: (error: unknown) => ServiceError | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The client's IP address as `--trust-proxy` resolves it (http/client-address.ts); never client-chosen text. */
    readonly clientAddress: string;
  }
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
    // Fastify's own trustProxy would take entries that are not addresses; request.clientAddress decides.
    trustProxy: false,
    // Deliberate limits and timeouts, not Node's defaults (docs/server.md, "Limits and timeouts").
    http: httpServerOptions(options.connections),
    requestTimeout: options.connections.requestTimeoutMs,
    keepAliveTimeout: options.connections.keepAliveTimeoutMs,
    connectionTimeout: options.connections.idleTimeoutMs,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    // Requests refused before routing get documented answers too (http/protocol-errors.ts).
    clientErrorHandler,
    frameworkErrors: frameworkErrorHandler,
  });
  app.decorate('asUnavailable', options.asUnavailable);
  installProtocolGuards(app.server);
  installConnectionPolicy(app.server, options.connections, options.trustProxy, { refused: (limit) => metrics.connectionsRefused.inc({ limit }) });
  const trust = options.trustProxy;
  app.decorateRequest('clientAddress', {
    getter(this: FastifyRequest): string {
      return clientAddress(this.raw.socket.remoteAddress, this.headers['x-forwarded-for'], trust);
    },
  });

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
