import type { IncomingHttpHeaders } from 'node:http';
/** Small helpers over fetch for driving the server in tests. */
export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

export async function request(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, { ...init, redirect: 'manual' });
  const text = await response.text();
  let body: unknown = undefined;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

export function postJson(url: string, value: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(value) });
}

export function postRaw(url: string, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string>): Promise<Answer> {
  return request(url, { method: 'POST', headers, body });
}

export interface HostedAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/**
 * A request to the server with another `Host` header (fetch does not let one be set): how a
 * hosted site is reached in tests, as if DNS pointed that hostname at the server. `path` is
 * sent as it is (`/../x` stays so), unlike a URL's.
 */
export async function requestAsHost(baseUrl: string, host: string, path: string, options: { method?: string; headers?: Record<string, string> } = {}): Promise<HostedAnswer> {
  const { request } = await import('node:http');
  const target = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: target.hostname, port: target.port, path, method: options.method ?? 'GET', headers: { ...options.headers, host }, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const body = Buffer.concat(chunks);
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body, text: body.toString('utf8') });
        });
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}
