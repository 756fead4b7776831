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
