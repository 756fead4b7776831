import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServedAsset } from '../lib/served-asset.js';
import { etagMatches } from './etag.js';

/**
 * One of the service's own scripts (`/pinpoints.js` and its screenshot module, `/altcha.js`):
 * any site may load it (CORS open, `cross-origin-resource-policy: cross-origin`), with its
 * ETag and caching, 304 for a copy the browser already holds.
 */
export function sendScriptAsset(request: FastifyRequest, reply: FastifyReply, asset: ServedAsset): FastifyReply {
  void reply
    .header('content-type', 'text/javascript; charset=utf-8')
    .header('cache-control', asset.cacheControl)
    .header('etag', asset.etag)
    .header('access-control-allow-origin', '*')
    .header('cross-origin-resource-policy', 'cross-origin')
    .header('x-content-type-options', 'nosniff');
  if (etagMatches(request.headers['if-none-match'], asset.etag)) return reply.code(304).send();
  return reply.send(asset.body);
}
