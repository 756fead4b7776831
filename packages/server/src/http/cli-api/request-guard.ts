import type { FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '@svc/protocol';
import { authFailuresName, failureOf, type FailedAuthentications } from '../../auth/failed-authentications.js';
import type { TokenAuthenticator } from '../../auth/token-authenticator.js';
import type { TokenPrincipal } from '../../auth/principal.js';
import { rateLimitHeaders } from '../../ratelimit/headers.js';
import type { RateLimitPolicy } from '../../ratelimit/policy.js';
import type { RateLimiter } from '../../ratelimit/rate-limiter.js';

/** The name of the CLI API's policy in the RateLimit headers and in the limiter's keys. */
export const cliPolicyName = 'cli';

/**
 * Before every CLI API request: refuse an address with too many failed authentications
 * (429, before any lookup), authenticate the bearer token (401 `unauthorized`), then
 * count the request against the token's limit (600 a minute by default, shared by every
 * instance when Redis is configured). Every authenticated answer carries the RateLimit
 * headers; past the limit it is 429 `rate_limited` with `retry-after`.
 */
export function requestGuard(authenticator: TokenAuthenticator, rateLimiter: RateLimiter, policy: RateLimitPolicy, failures: FailedAuthentications) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const authenticated = await failures.attempt(request.clientAddress, () => authenticator.authenticate(request.headers.authorization), {
      counts: (error) => {
        void reply.header('www-authenticate', 'Bearer realm="svc"');
        return failureOf('unauthorized')(error);
      },
      refused: (decision) => void reply.headers(rateLimitHeaders(decision, authFailuresName)),
    });
    const principal: TokenPrincipal = { ...authenticated, ip: request.clientAddress };
    request.principal = principal;
    const decision = await rateLimiter.consume(policy, principal.tokenId, cliPolicyName);
    void reply.headers(rateLimitHeaders(decision, cliPolicyName));
    if (!decision.allowed) {
      throw new ServiceError(
        'rate_limited',
        `too many requests with this token (the limit is ${policy.max} per ${policy.windowSeconds} s); retry in ${decision.resetSeconds} s`,
        { retryAfter: decision.resetSeconds },
      );
    }
  };
}
