import type { RateLimitPolicy } from '@svc/protocol';

export type { RateLimitPolicy } from '@svc/protocol';

/** The specification's default: 30 requests per 5 minutes. */
export const defaultFormPolicy: RateLimitPolicy = { max: 30, windowSeconds: 300 };

/** The specification's CLI limit: 600 requests per minute per token. */
export const defaultCliPolicy: RateLimitPolicy = { max: 600, windowSeconds: 60 };
