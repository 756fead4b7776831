import { describe, expect, it } from 'vitest';
import { readSessionCookie, sessionCookieFor } from './session-cookie.js';

describe('the session cookie', () => {
  it('is __Host-svc_session, Secure, on an https base URL, and svc_session on plain http', () => {
    expect(sessionCookieFor('https://svc.example.com')).toEqual({ name: '__Host-svc_session', options: { path: '/', httpOnly: true, sameSite: 'lax', secure: true } });
    expect(sessionCookieFor('http://127.0.0.1:8787')).toEqual({ name: 'svc_session', options: { path: '/', httpOnly: true, sameSite: 'lax', secure: false } });
  });

  it('reads the one session cookie of the name in use among other cookies', () => {
    expect(readSessionCookie('theme=dark; __Host-svc_session=abc; lang=en', '__Host-svc_session')).toEqual({ kind: 'one', id: 'abc' });
    expect(readSessionCookie('svc_session="abc"', 'svc_session')).toEqual({ kind: 'one', id: 'abc' });
    expect(readSessionCookie(undefined, 'svc_session')).toEqual({ kind: 'none' });
    expect(readSessionCookie('svc_session=', 'svc_session')).toEqual({ kind: 'none' });
  });

  it('does not take a session cookie of the other name as a session', () => {
    expect(readSessionCookie('svc_session=abc', '__Host-svc_session')).toEqual({ kind: 'none' });
    expect(readSessionCookie('__Host-svc_session=abc', 'svc_session')).toEqual({ kind: 'none' });
    expect(readSessionCookie('SVC_SESSION=abc; x_svc_session=def', 'svc_session')).toEqual({ kind: 'none' });
  });

  it('trusts none when more than one session cookie is sent: the same name twice, or both names', () => {
    expect(readSessionCookie('svc_session=tossed; svc_session=mine', 'svc_session')).toEqual({ kind: 'several' });
    expect(readSessionCookie('__Host-svc_session=mine; svc_session=tossed', '__Host-svc_session')).toEqual({ kind: 'several' });
    expect(readSessionCookie('svc_session=mine; __Host-svc_session=other', 'svc_session')).toEqual({ kind: 'several' });
    expect(readSessionCookie('svc_session; svc_session=mine', 'svc_session')).toEqual({ kind: 'several' });
  });
});
