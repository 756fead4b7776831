import { isProjectHost } from '../sites/page-origin.js';

/**
 * How the form endpoint answers a person whose browser posted a plain HTML form
 * (docs/form-endpoint.md, "Forms without JavaScript"): redirects and where they may go.
 */

/**
 * Whether the request asks for a page rather than JSON: its `Accept` lists `text/html` and
 * not `application/json`, as a browser's navigation does. Every other client keeps JSON.
 */
export function wantsHtml(accept: string | undefined): boolean {
  if (accept === undefined) return false;
  const types = accept.split(',').map((part) => part.split(';')[0]!.trim().toLowerCase());
  return types.includes('text/html') && !types.includes('application/json');
}

/** An absolute http(s) URL, or null. */
export function httpUrl(text: string | undefined | null): URL | null {
  if (text === undefined || text === null || text.length > 2048) return null;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * Where a successful post sends the browser: `_redirect` when its host is one of the
 * project's domains or its origin is the request's own `Origin` (anything else would make
 * the endpoint an open redirect, so it is ignored), else the form's success URL, else
 * nowhere (the thank-you page).
 */
export async function successLocation(options: {
  readonly requested: string | null;
  readonly origin: string | undefined;
  /** Asked only when `_redirect` was sent. */
  readonly projectHostnames: () => Promise<readonly string[]>;
  readonly successUrl: string | null;
}): Promise<string | null> {
  const requested = httpUrl(options.requested);
  if (requested === null) return options.successUrl;
  if (options.origin !== undefined && requested.origin === options.origin) return requested.href;
  return isProjectHost(requested.hostname, await options.projectHostnames()) ? requested.href : options.successUrl;
}

/** The form's error URL with `?error=<code>` (and `&field=<name>` for an invalid field). */
export function errorLocation(errorUrl: string, code: string, field: string | undefined): string {
  const url = new URL(errorUrl);
  url.searchParams.set('error', code);
  if (field !== undefined) url.searchParams.set('field', field);
  return url.href;
}

/** The page the form was on, for a link back: the `Referer` when it is http(s). */
export function backLink(referer: string | undefined): string | null {
  return httpUrl(referer)?.href ?? null;
}
