import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomToken } from '../../lib/ids.js';
import { tokensEqual } from '../../lib/constant-time.js';
import { readSingleCookie } from './session-cookie.js';

/**
 * CSRF protection for the sign-in link's page, which has no session yet (docs/settings.md):
 * opening the link gives the browser a random nonce in an HttpOnly cookie, and the page's
 * form carries its hash; the POST that spends the link must bring both. Another site can
 * neither read the cookie nor, behind https (`__Host-`), set it, so it cannot make a browser
 * sign in with a link of its own choosing (login CSRF), even where no `Origin` is sent.
 */
const hostName = '__Host-svc_sign_in';
const plainName = 'svc_sign_in';
const names: ReadonlySet<string> = new Set([hostName, plainName]);
/** Long enough to read the page and press the button; a link lives 5 minutes. */
const lifetimeSeconds = 15 * 60;

function cookieFor(baseUrl: string) {
  const secure = baseUrl.startsWith('https:');
  return { name: secure ? hostName : plainName, options: { path: '/', httpOnly: true, sameSite: 'strict' as const, secure, maxAge: lifetimeSeconds } };
}

function formTokenOf(nonce: string): string {
  return createHash('sha256').update(`sign-in-form:${nonce}`, 'utf8').digest('base64url');
}

/** The token the sign-in form carries; sets the nonce cookie unless the browser has one (another tab's link keeps working). */
export function issueSignInFormToken(request: FastifyRequest, reply: FastifyReply, baseUrl: string): string {
  const { name, options } = cookieFor(baseUrl);
  const sent = readSingleCookie(request.headers.cookie, names, name);
  const nonce = sent.kind === 'one' && /^[0-9A-Za-z]{40,64}$/.test(sent.id) ? sent.id : randomToken(256);
  void reply.setCookie(name, nonce, options);
  return formTokenOf(nonce);
}

/** Whether a POST carries the token of the nonce cookie its browser holds. */
export function signInFormTokenValid(request: FastifyRequest, baseUrl: string, given: unknown): boolean {
  const sent = readSingleCookie(request.headers.cookie, names, cookieFor(baseUrl).name);
  return sent.kind === 'one' && tokensEqual(formTokenOf(sent.id), given);
}

/** Forgets the nonce once it served its sign-in. */
export function clearSignInFormCookie(reply: FastifyReply, baseUrl: string): void {
  const { name, options } = cookieFor(baseUrl);
  void reply.clearCookie(name, { path: options.path, httpOnly: options.httpOnly, sameSite: options.sameSite, secure: options.secure });
}
