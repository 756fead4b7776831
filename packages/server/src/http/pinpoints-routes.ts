import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '@svc/protocol';
import { honeypotName } from '../forms/instructions.js';
import { acceptRequest, type RequestServices } from '../pinpoints/accept-request.js';
import { readVisitorRequest } from '../pinpoints/request-body.js';
import { visitorThread } from '../pinpoints/visitor-thread.js';
import type { ServedAsset } from '../lib/served-asset.js';
import type { WidgetAssets } from '../pinpoints/widget-assets.js';
import { isPinpointsEnvironment } from '../pinpoints/widget-settings.js';
import { admitWidgetCall, countWidgetPost, type WidgetTarget } from '../pinpoints/widget-target.js';
import { rateLimitHeaders } from '../ratelimit/headers.js';
import type { RateLimitPolicy } from '../ratelimit/policy.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import { environmentOfHost, originHostname } from '../sites/page-origin.js';
import type { ProjectSites } from '../sites/project-sites.js';
import { sendScriptAsset } from './script-asset.js';
import { refuseUnstorableInput } from './storable-input.js';

export interface PinpointsRouteServices {
  readonly requests: RequestServices;
  /** A project's domains, held (the page-origin policy and the page's environment). */
  readonly sites: Pick<ProjectSites, 'domains'>;
  readonly rateLimiter: RateLimiter;
  /** The form endpoint's policy: the widget is limited the same way (docs/pinpoints.md). */
  readonly policy: RateLimitPolicy;
}

type KeyRequest = FastifyRequest<{ Params: { key: string; id?: string }; Querystring: Record<string, string | undefined> }>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The project addressed by `/api/p/:key`, once its key and the page's origin passed. */
    widgetTarget: WidgetTarget | null;
  }
}

const allowedHeaders = `content-type, ${honeypotName}`;
const exposedHeaders = 'retry-after, ratelimit, ratelimit-policy';

/**
 * The widget's public API under `/api/p/:key` (docs/pinpoints.md): its settings, sending a
 * request, and the reporter's view of their request. Every route checks the key (404) and
 * the page's origin against the project's domains (403) before anything else; CORS headers
 * go only to origins that passed.
 */
export async function pinpointsRoutes(app: FastifyInstance, services: PinpointsRouteServices): Promise<void> {
  app.decorateRequest('widgetTarget', null);
  // Before the key or a request id is looked up: NUL in a path or query is refused as such.
  app.addHook('onRequest', refuseUnstorableInput);
  await app.register(multipart, { throwFileSizeLimit: true });
  const admit = (request: FastifyRequest, reply: FastifyReply) => admitOrigin(request as KeyRequest, reply, services);

  app.get('/:key/settings', { onRequest: admit }, async (request, reply) => {
    const { query, headers } = request as KeyRequest;
    const target = request.widgetTarget!;
    const asked = query['environment'];
    if (asked !== undefined && !isPinpointsEnvironment(asked)) {
      throw new ServiceError('validation_failed', 'environment must be production, staging or development', { errors: { environment: 'must be production, staging or development' } });
    }
    const environment = asked ?? environmentOfHost(query['host'] ?? originHostname(headers.origin) ?? '', target.domains);
    const enabled = environment !== null && target.settings[environment];
    void reply.header('cache-control', 'no-cache');
    return { ok: true, enabled, redact: enabled ? target.settings.redact : [] };
  });

  app.post('/:key/requests', { onRequest: [admit, (request, reply) => limitRate(request, reply, services)] }, async (request, reply) => {
    const visitor = await readVisitorRequest(request, services.requests.store.files);
    const created = await acceptRequest(services.requests, {
      target: request.widgetTarget!,
      visitor,
      client: { address: request.clientAddress, userAgent: request.headers['user-agent'], origin: request.headers.origin, honeypotHeader: request.headers[honeypotName] !== undefined },
    });
    return reply.code(200).send({ ok: true, id: created.id, readToken: created.readToken });
  });

  app.get('/:key/requests/:id', { onRequest: admit }, async (request, reply) => {
    const { params, query } = request as KeyRequest;
    const token = query['token'];
    if (token === undefined || token.length === 0 || token.length > 100) throw new ServiceError('not_found', 'no such request');
    void reply.header('cache-control', 'no-store');
    return { ok: true, request: await visitorThread(services.requests.store.db, request.widgetTarget!.project, params.id ?? '', token) };
  });

  // The preflight of a cross-origin call with the honeypot header (plain widget calls need none).
  app.options('/:key/*', { onRequest: admit }, (_request, reply) =>
    reply
      .code(204)
      .header('access-control-allow-methods', 'GET, POST')
      .header('access-control-allow-headers', allowedHeaders)
      .header('access-control-max-age', '86400')
      .send(),
  );
}

async function admitOrigin(request: KeyRequest, reply: FastifyReply, services: PinpointsRouteServices): Promise<void> {
  const origin = request.headers.origin;
  request.widgetTarget = await admitWidgetCall({ db: services.requests.store.db, sites: services.sites }, request.params.key, { origin, writes: request.method === 'POST' });
  if (origin !== undefined) {
    void reply.header('access-control-allow-origin', origin).header('access-control-expose-headers', exposedHeaders).header('vary', 'origin');
  }
}

async function limitRate(request: FastifyRequest, reply: FastifyReply, services: PinpointsRouteServices): Promise<void> {
  const decision = await countWidgetPost(services.rateLimiter, services.policy, request.widgetTarget!, request.clientAddress);
  void reply.headers(rateLimitHeaders(decision));
  if (!decision.allowed) {
    throw new ServiceError('rate_limited', `too many requests from this address; retry in ${decision.resetSeconds} s`, { retryAfter: decision.resetSeconds });
  }
}

/** `/pinpoints.js` and its screenshot module: any site may load them (docs/pinpoints.md). */
export function widgetAssetRoutes(app: FastifyInstance, assets: WidgetAssets | null): Promise<void> {
  const send = (request: FastifyRequest, reply: FastifyReply, asset: ServedAsset | undefined): FastifyReply => {
    if (asset === undefined) throw new ServiceError('unavailable', 'the Pinpoints widget was not built (npm run build)');
    return sendScriptAsset(request, reply, asset);
  };
  app.get('/pinpoints.js', (request, reply) => send(request, reply, assets?.widget));
  if (assets) app.get(`/${assets.capture.file}`, (request, reply) => send(request, reply, assets.capture));
  return Promise.resolve();
}
