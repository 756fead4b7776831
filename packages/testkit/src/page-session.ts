/**
 * A browser-like client for the settings area over plain HTTP: keeps the session cookie,
 * never follows redirects (tests check them), reads the CSRF token from pages.
 */
export interface PageAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

export class PageSession {
  private cookie: string | null = null;

  constructor(readonly baseUrl: string) {}

  get signedIn(): boolean {
    return this.cookie !== null;
  }

  /** The session cookie as sent (`name=value`), or null when signed out. */
  get sessionCookie(): string | null {
    return this.cookie;
  }

  /** A GET; `cookie` replaces the session cookie with a whole `Cookie` header of the test's own. */
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

  /** The CSRF token of a signed-in page. */
  async csrf(path = '/settings'): Promise<string> {
    const page = await this.get(path);
    const match = /name="_csrf" value="([^"]+)"/.exec(page.text);
    if (!match) throw new Error(`no CSRF token on ${path} (status ${page.status})`);
    return match[1]!;
  }

  private async send(path: string, init: RequestInit): Promise<PageAnswer> {
    const headers = new Headers(init.headers);
    if (this.cookie && !headers.has('cookie')) headers.set('cookie', this.cookie);
    headers.set('accept', 'text/html');
    const response = await fetch(new URL(path, this.baseUrl), { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = (pair ?? '').split('=');
      if (name !== 'svc_session' && name !== '__Host-svc_session') continue;
      this.cookie = value && !/max-age=0|expires=thu, 01 jan 1970/i.test(line) ? `${name}=${value}` : null;
    }
    return { status: response.status, headers: response.headers, text: await response.text() };
  }
}
