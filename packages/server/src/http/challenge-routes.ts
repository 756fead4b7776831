import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '@svc/protocol';
import type { FormDirectory } from '../forms/form-directory.js';
import type { AltchaChallenges } from '../forms/spam/altcha-challenges.js';
import { altchaWidgetPath } from '../forms/spam/altcha-widget.js';
import type { ServedAsset } from '../lib/served-asset.js';
import { rateLimitHeaders } from '../ratelimit/headers.js';
import type { RateLimitPolicy } from '../ratelimit/policy.js';
import type { RateLimiter } from '../ratelimit/rate-limiter.js';
import { sendScriptAsset } from './script-asset.js';

export interface ChallengeRouteServices {
  readonly directory: FormDirectory;
  readonly rateLimiter: RateLimiter;
  /** Challenges per client per form, counted apart from posts. */
  readonly policy: RateLimitPolicy;
  readonly altcha: AltchaChallenges;
  /** The `altcha` widget script; null when the package is missing. */
  readonly widget: ServedAsset | null;
  /** The operations' clock (context.now): a challenge expires against it. */
  readonly now: () => number;
}

/**
 * `GET /api/f/{id}/challenge` (docs/form-endpoint.md, "ALTCHA"): a fresh challenge, one
 * hash and one HMAC, nothing stored; any page may fetch it; never cached. Its own rate
 * limit, so fetching challenges does not use up a visitor's posts.
 */
export function challengeRoutes(app: FastifyInstance, services: ChallengeRouteServices): Promise<void> {
  app.get('/api/f/:id/challenge', async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
    void reply.header('access-control-allow-origin', '*').header('cache-control', 'no-store');
    const form = await services.directory.resolve(request.params.id);
    if (!form) throw new ServiceError('not_found', 'no form has this endpoint id');
    const decision = await services.rateLimiter.consumeClient(services.policy, { scope: form.id, address: request.clientAddress }, 'challenge');
    void reply.headers(rateLimitHeaders(decision, 'challenge'));
    if (!decision.allowed) {
      throw new ServiceError('rate_limited', `too many challenges from this address; retry in ${decision.resetSeconds} s`, { retryAfter: decision.resetSeconds });
    }
    return services.altcha.create(form.endpointId, services.now());
  });
  app.get(altchaWidgetPath, (request, reply) => sendWidget(request, reply, services.widget));
  return Promise.resolve();
}

function sendWidget(request: FastifyRequest, reply: FastifyReply, widget: ServedAsset | null): FastifyReply {
  if (widget === null) throw new ServiceError('unavailable', 'the altcha package is not installed');
  return sendScriptAsset(request, reply, widget);
}
