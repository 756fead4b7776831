import { describe, expect, it } from 'vitest';
import { rateLimitHeaders } from './headers.js';

describe('rate-limit headers', () => {
  it('writes the draft-11 RateLimit-Policy and RateLimit fields, and retry-after when refused', () => {
    expect(rateLimitHeaders({ allowed: true, policy: { max: 30, windowSeconds: 300 }, remaining: 29, resetSeconds: 300 })).toEqual({
      'ratelimit-policy': '"form";q=30;w=300',
      ratelimit: '"form";r=29;t=300',
    });
    expect(rateLimitHeaders({ allowed: false, policy: { max: 30, windowSeconds: 300 }, remaining: 0, resetSeconds: 12 })).toEqual({
      'ratelimit-policy': '"form";q=30;w=300',
      ratelimit: '"form";r=0;t=12',
      'retry-after': '12',
    });
  });
});
