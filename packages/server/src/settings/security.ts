import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Headers on every settings page and answer (docs/settings.md): no inline scripts, no
 * framing, no sniffing, and no full URLs leaking to other sites.
 */
export const pageSecurityHeaders: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

/**
 * Whether a state-changing request comes from our own pages: its `Origin` (or, without one,
 * its `Referer`) must be the public base URL's origin or the origin the request was sent to.
 * A request that names neither is let through to the CSRF token check, which it must pass.
 */
export function sameOrigin(request: FastifyRequest, baseUrl: string): boolean {
  const claimed = request.headers.origin ?? refererOrigin(request.headers.referer);
  if (claimed === undefined) return true;
  if (claimed === 'null') return false;
  const allowed = new Set<string>();
  try {
    allowed.add(new URL(baseUrl).origin);
  } catch {
    // No base URL yet: only the request's own origin counts.
  }
  const host = request.headers.host;
  if (host) allowed.add(`${request.protocol}://${host}`);
  return allowed.has(claimed);
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (referer === undefined) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return 'null';
  }
}

export function setPageHeaders(reply: FastifyReply): void {
  void reply.headers(pageSecurityHeaders);
}
