import type { CookieSerializeOptions } from '@fastify/cookie';

/**
 * The session cookie's names (docs/settings.md). Behind an https base URL the cookie is
 * `__Host-svc_session`: browsers accept that name only from this very host, over https,
 * with `Path=/` and no `Domain`, so no other site (a hosted deploy's preview on a sibling
 * domain above all) can set or shadow it. A plain-http base URL (a laptop, a test) has no
 * such protection and uses `svc_session`.
 */
export const hostSessionCookie = '__Host-svc_session';
export const plainSessionCookie = 'svc_session';
const sessionCookieNames: ReadonlySet<string> = new Set([hostSessionCookie, plainSessionCookie]);

/** The cookie's name and attributes for this base URL. */
export function sessionCookieFor(baseUrl: string): { name: string; options: CookieSerializeOptions } {
  const secure = baseUrl.startsWith('https:');
  return { name: secure ? hostSessionCookie : plainSessionCookie, options: { path: '/', httpOnly: true, sameSite: 'lax', secure } };
}

/** What a request's `Cookie` header says about a cookie that must come alone. */
export type SingleCookie =
  | { readonly kind: 'none' }
  | { readonly kind: 'one'; readonly id: string }
  /** More than one cookie of the family (two names, or one name twice): none of them is trusted. */
  | { readonly kind: 'several' };

/**
 * Reads the session cookie from the raw `Cookie` header. A request naming more than one
 * session cookie, under any of the names, is signed out; a single one counts only under the
 * name this base URL uses.
 */
export function readSessionCookie(header: string | undefined, name: string): SingleCookie {
  return readSingleCookie(header, sessionCookieNames, name);
}

/**
 * Reads the raw `Cookie` header, not a parsed map: a parser keeps one value per name and
 * would hide the second cookie of the same name that another site under a shared parent
 * domain may have set (with a longer path, it is even sent first). `names` are the names of
 * one cookie (prefixed or not); `name` is the one in use.
 */
export function readSingleCookie(header: string | undefined, names: ReadonlySet<string>, name: string): SingleCookie {
  let found: string | null = null;
  let count = 0;
  for (const pair of (header ?? '').split(';')) {
    const equals = pair.indexOf('=');
    const cookieName = (equals === -1 ? pair : pair.slice(0, equals)).trim();
    if (!names.has(cookieName)) continue;
    count += 1;
    if (cookieName === name && equals !== -1) found = unquote(pair.slice(equals + 1).trim());
  }
  if (count > 1) return { kind: 'several' };
  return found === null || found === '' ? { kind: 'none' } : { kind: 'one', id: found };
}

function unquote(value: string): string {
  return value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
}
