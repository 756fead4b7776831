/**
 * A browser-like client for the settings area over plain HTTP: keeps the cookies the server
 * sets (the session, the sign-in form's), never follows redirects (tests check them), reads
 * the CSRF token from pages.
 */
export interface PageAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

const sessionCookieNames = new Set(['svc_session', '__Host-svc_session']);

export class PageSession {
  private readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  get signedIn(): boolean {
    return this.sessionCookie !== null;
  }

  /** The session cookie as sent (`name=value`), or null when signed out. */
  get sessionCookie(): string | null {
    for (const [name, value] of this.cookies) if (sessionCookieNames.has(name)) return `${name}=${value}`;
    return null;
  }

  /** A GET; `cookie` replaces the cookies kept with a whole `Cookie` header of the test's own. */
  async get(path: string, options: { cookie?: string } = {}): Promise<PageAnswer> {
    return this.send(path, { method: 'GET', ...(options.cookie === undefined ? {} : { headers: { cookie: options.cookie } }) });
  }

  /** Posts a form as a browser does, from our own origin unless `origin` says otherwise. */
  async post(path: string, fields: Record<string, string>, options: { origin?: string | null } = {}): Promise<PageAnswer> {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    const origin = options.origin === undefined ? new URL(this.baseUrl).origin : options.origin;
    if (origin !== null) headers['origin'] = origin;
    return this.send(path, { method: 'POST', headers, body: new URLSearchParams(fields).toString() });
  }

  async signIn(token: string): Promise<PageAnswer> {
    return this.post('/login', { token, next: '/settings' });
  }

  /**
   * Opens a sign-in link (made by `svc open`, an invite, or emailed; its page shows who signs in) and presses its
   * **Sign in** button: the answer to that POST, or the page itself when it has no form.
   */
  async openSignInLink(url: string): Promise<PageAnswer> {
    const page = await this.get(new URL(url).pathname);
    const form = signInForm(page.text);
    if (page.status !== 200 || form === null) return page;
    return this.post(form.action, { _csrf: form.csrf });
  }

  /** The CSRF token of a signed-in page. */
  async csrf(path = '/settings'): Promise<string> {
    const page = await this.get(path);
    const match = /name="_csrf" value="([^"]+)"/.exec(page.text);
    if (!match) throw new Error(`no CSRF token on ${path} (status ${page.status})`);
    return match[1]!;
  }

  private async send(path: string, init: RequestInit): Promise<PageAnswer> {
    const headers = new Headers(init.headers);
    const kept = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    if (kept !== '' && !headers.has('cookie')) headers.set('cookie', kept);
    headers.set('accept', 'text/html');
    const response = await fetch(new URL(path, this.baseUrl), { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const equals = (pair ?? '').indexOf('=');
      const name = pair!.slice(0, equals);
      const value = pair!.slice(equals + 1);
      if (value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: response.status, headers: response.headers, text: await response.text() };
  }
}

/** The action and CSRF token of a sign-in link's page, or null when the page has no such form. */
export function signInForm(html: string): { action: string; csrf: string } | null {
  const action = /<form method="post" action="(\/login\/(?:link|invite|email)\/[^"]+)"/.exec(html)?.[1];
  const csrf = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
  return action === undefined || csrf === undefined ? null : { action, csrf };
}
