import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { ServiceError } from '@svc/protocol';
import { checkerFor, type Static, type TSchema } from '@svc/protocol/api';
import { failureFromAnswer, unreachable } from './http-failure.js';

export type Query = Readonly<Record<string, string | number | boolean | undefined>>;

export interface ApiClientOptions {
  /** The server's base URL, e.g. `http://127.0.0.1:8787`. */
  readonly apiUrl: string;
  readonly token: string;
  /** How long a request may take before it counts as a network failure. */
  readonly timeoutMs?: number;
}

/**
 * The CLI's side of the private CLI API: Node's fetch with the bearer token. Every answer
 * is checked against the schema it was defined with in @svc/protocol. Failures become
 * ServiceErrors: no answer → `network_error` (exit 3), 5xx → exit 3, 4xx → the registry
 * code the server sent, an answer that does not match its schema → `server_error`.
 */
export class ApiClient {
  readonly apiUrl: string;
  private readonly token: string;
  private readonly timeoutMs: number;

  constructor(options: ApiClientOptions) {
    this.apiUrl = options.apiUrl.replace(/\/+$/, '');
    this.token = options.token;
    this.timeoutMs = options.timeoutMs ?? 60_000;
  }

  get<S extends TSchema>(path: string, schema: S, query?: Query): Promise<Static<S>> {
    return this.call('GET', path, schema, { query });
  }

  post<S extends TSchema>(path: string, body: unknown, schema: S): Promise<Static<S>> {
    return this.call('POST', path, schema, { body });
  }

  put<S extends TSchema>(path: string, body: unknown, schema: S): Promise<Static<S>> {
    return this.call('PUT', path, schema, { body });
  }

  patch<S extends TSchema>(path: string, body: unknown, schema: S): Promise<Static<S>> {
    return this.call('PATCH', path, schema, { body });
  }

  delete<S extends TSchema>(path: string, schema: S): Promise<Static<S>> {
    return this.call('DELETE', path, schema, {});
  }

  /**
   * A PUT of a file's bytes, streamed from disk (`application/octet-stream`). A 429 is
   * waited out (its `retry-after`) and tried again, up to `retries` times: a deploy
   * uploads many files under the token's rate limit.
   */
  async upload<S extends TSchema>(path: string, file: string, schema: S, retries = 5): Promise<Static<S>> {
    for (let attempt = 0; ; attempt += 1) {
      const url = `${this.apiUrl}${path}`;
      let response: Response;
      try {
        response = await fetch(url, {
          method: 'PUT',
          headers: { authorization: `Bearer ${this.token}`, accept: 'application/json', 'content-type': 'application/octet-stream' },
          body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>,
          duplex: 'half',
          redirect: 'error',
          signal: AbortSignal.timeout(this.timeoutMs * 10),
        } as RequestInit);
      } catch (error) {
        throw unreachable(this.apiUrl, error);
      }
      const text = await this.readText(response);
      if (response.status === 429 && attempt < retries) {
        const wait = Number(response.headers.get('retry-after') ?? '1');
        await new Promise((resolve) => setTimeout(resolve, Math.min(60, Number.isFinite(wait) ? Math.max(wait, 1) : 1) * 1000));
        continue;
      }
      return this.answer('PUT', path, schema, response, text);
    }
  }

  /** A GET whose answer is read as a stream; only the wait for its headers is timed. */
  async stream(path: string, query?: Query): Promise<Response> {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new DOMException('no answer in time', 'TimeoutError')), this.timeoutMs);
    try {
      const response = await this.send('GET', path, { query }, controller.signal);
      if (!response.ok) throw failureFromAnswer(response.status, await this.readText(response), this.apiUrl, `GET ${path}`);
      return response;
    } finally {
      clearTimeout(timer);
    }
  }

  private async call<S extends TSchema>(method: string, path: string, schema: S, options: { query?: Query | undefined; body?: unknown }): Promise<Static<S>> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    const response = await this.send(method, path, options, signal);
    return this.answer(method, path, schema, response, await this.readText(response));
  }

  /** The answer's body checked against its schema; a failure as the ServiceError it means. */
  private answer<S extends TSchema>(method: string, path: string, schema: S, response: Response, text: string): Static<S> {
    if (!response.ok) throw failureFromAnswer(response.status, text, this.apiUrl, `${method} ${path}`);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw this.notUnderstood(method, path, 'it is not JSON');
    }
    const problem = checkerFor(schema).firstError(value);
    if (problem !== null) throw this.notUnderstood(method, path, problem);
    return value as Static<S>;
  }

  private async send(method: string, path: string, options: { query?: Query | undefined; body?: unknown }, signal: AbortSignal): Promise<Response> {
    const url = `${this.apiUrl}${path}${queryString(options.query)}`;
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}`, accept: 'application/json' };
    const init: RequestInit = { method, headers, signal, redirect: 'error' };
    if (method !== 'GET' && method !== 'DELETE') {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(options.body ?? {});
    }
    try {
      return await fetch(url, init);
    } catch (error) {
      throw unreachable(this.apiUrl, error);
    }
  }

  private async readText(response: Response): Promise<string> {
    try {
      return await response.text();
    } catch (error) {
      throw unreachable(this.apiUrl, error);
    }
  }

  private notUnderstood(method: string, path: string, problem: string): ServiceError {
    return new ServiceError('server_error', `the answer of ${this.apiUrl} to ${method} ${path} was not understood (${problem}); is it the base address of an svc server of this version, as \`svc serve\` prints it?`);
  }
}

function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
