import { deployIdPattern } from '../lib/ids.js';
import { findDeployById, hostedSite } from '../store/queries/deploys.js';
import type { Db } from '../store/store.js';

/** What a request's `Host` names: a deploy to serve (or none yet), with its project and environment. */
export interface HostedTarget {
  readonly projectId: string;
  readonly environment: string;
  /** Null when the hostname is a project's but nothing is live there yet. */
  readonly deployId: string | null;
  /** A deploy's own preview address (`{deploy id}.{preview domain}`), whatever its environment. */
  readonly preview: boolean;
}

/**
 * The hostname a request may be for a hosted site under: null for the service's own names
 * and bare addresses, which are never a site (health checks, the CLI API and the settings
 * area are answered without a lookup, even while the database is away).
 */
export function siteHostname(hostHeader: string | undefined, serviceHostnames: ReadonlySet<string>): string | null {
  const hostname = hostnameOf(hostHeader);
  if (hostname === null || serviceHostnames.has(hostname) || /^[\d.]+$/.test(hostname)) return null;
  return hostname;
}

/**
 * What a hostname serves (docs/hosting.md): `{deploy id}.{preview domain}` is that deploy's
 * preview (once finished); a hostname in a project's `domains` is that environment's live
 * deploy; anything else is the service itself (null).
 */
export async function lookUpSite(db: Db, hostname: string, previewDomain: string): Promise<HostedTarget | null> {
  const suffix = `.${previewDomain}`;
  if (hostname.endsWith(suffix)) {
    const label = hostname.slice(0, -suffix.length);
    if (deployIdPattern.test(label)) {
      const deploy = await findDeployById(db, label);
      return { projectId: deploy?.project_id ?? '', environment: deploy?.environment ?? 'production', deployId: deploy?.state === 'ready' ? deploy.id : null, preview: true };
    }
  }
  const site = await hostedSite(db, hostname);
  return site === undefined ? null : { ...site, preview: false };
}

/** The hostname of a `Host` header, lower case, without port or final dot; null when malformed. */
export function hostnameOf(host: string | undefined): string | null {
  if (host === undefined || host === '') return null;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '');
  const hostname = name.toLowerCase().replace(/\.$/, '');
  return /^[a-z0-9.-]{1,253}$/.test(hostname) ? hostname : null;
}

/** The hostnames the service itself answers on: its base and forms URLs, and `localhost`. */
export function serviceHostnames(context: { readonly urls: { readonly baseUrl: string; readonly formsUrl: string } }): Set<string> {
  const names = new Set(['localhost']);
  for (const url of [context.urls.baseUrl, context.urls.formsUrl]) {
    try {
      names.add(new URL(url).hostname.toLowerCase());
    } catch {
      // Not known before the server listens.
    }
  }
  return names;
}
