import { ServiceError } from '@svc/protocol';
import type { RateLimitPolicy } from '../ratelimit/policy.js';
import type { RateLimitDecision, RateLimiter } from '../ratelimit/rate-limiter.js';
import type { ResolvedForm } from '../store/queries/forms.js';
import type { FormDirectory } from './form-directory.js';

export interface AdmissionServices {
  readonly directory: FormDirectory;
  readonly rateLimiter: RateLimiter;
  /** The server's form rate limit, for forms without their own. */
  readonly defaultPolicy: RateLimitPolicy;
}

/** A form that may take this client's post, and the rate limit's count for the answer's headers. */
export interface Admission {
  readonly form: ResolvedForm;
  readonly limit: RateLimitDecision;
  /** Over the limit: the `rate_limited` error to answer with (after the limit's headers). */
  readonly refusal: ServiceError | null;
}

/**
 * Before the body is read: the form must exist (`not_found`), and the client is counted
 * against the form's rate limit.
 */
export async function admitSubmission(services: AdmissionServices, endpointId: string, clientAddress: string): Promise<Admission> {
  const form = await services.directory.resolve(endpointId);
  if (!form) throw new ServiceError('not_found', 'no form has this endpoint id');
  const limit = await services.rateLimiter.consumeClient(form.rateLimit ?? services.defaultPolicy, { scope: form.id, address: clientAddress });
  const refusal = limit.allowed ? null : new ServiceError('rate_limited', `too many submissions from this address; retry in ${limit.resetSeconds} s`, { retryAfter: limit.resetSeconds });
  return { form, limit, refusal };
}
