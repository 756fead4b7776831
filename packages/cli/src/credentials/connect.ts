import { ServiceError } from '@svc/protocol';
import { ApiClient } from '../api/api-client.js';
import type { Io } from '../io.js';
import { credentialsPath } from './config-dir.js';
import { readCredentials } from './credentials-file.js';

/** Where `svc serve` listens by default. */
export const defaultApiUrl = 'http://127.0.0.1:8787';

/** An http(s) URL without its trailing slash; `usage` for anything else. */
export function normalizeApiUrl(value: string, source: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ServiceError('usage', `${source} must be an http:// or https:// URL, not "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ServiceError('usage', `${source} must be an http:// or https:// URL, not "${value}"`);
  return value.replace(/\/+$/, '');
}

/**
 * A client for the server the CLI works with: `SVC_TOKEN` and `SVC_API_URL` when set,
 * else what `svc login` saved. A saved token is only ever sent to the server it was saved
 * for, so pointing SVC_API_URL elsewhere never leaks it.
 */
export async function connect(io: Io): Promise<ApiClient> {
  const envToken = nonEmpty(io.env['SVC_TOKEN']);
  const envUrl = nonEmpty(io.env['SVC_API_URL']);
  const apiUrl = envUrl === undefined ? undefined : normalizeApiUrl(envUrl, 'SVC_API_URL');
  if (envToken !== undefined) {
    const saved = apiUrl === undefined ? await readCredentials(credentialsPath(io.env)) : null;
    return new ApiClient({ apiUrl: apiUrl ?? saved?.apiUrl ?? defaultApiUrl, token: envToken });
  }
  const saved = await readCredentials(credentialsPath(io.env));
  if (saved === null) {
    throw new ServiceError('not_logged_in', 'not logged in: run `svc login --token <token> --api <url>`, or set SVC_TOKEN and SVC_API_URL');
  }
  if (apiUrl !== undefined && apiUrl !== saved.apiUrl) {
    throw new ServiceError('not_logged_in', `no token for ${apiUrl}: the saved one is for ${saved.apiUrl}; set SVC_TOKEN or run \`svc login --api ${apiUrl}\``);
  }
  return new ApiClient({ apiUrl: saved.apiUrl, token: saved.token });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}
