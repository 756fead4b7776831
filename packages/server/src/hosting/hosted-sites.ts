import { findDeployById, hostedSite } from '../store/queries/deploys.js';
import type { Db } from '../store/store.js';

/** What a request's `Host` names: a deploy to serve (or none yet), with its project and environment. */
export interface HostedTarget {
  readonly projectId: string;
  readonly environment: string;
  /** Null when the hostname is a project's but nothing is live there yet. */
  readonly deployId: string | null;
}

const deployLabel = /^dpl-[0-9a-z]{26}$/;

/**
 * Decides from the `Host` header whether a request is for a hosted site (docs/hosting.md):
 * `{deploy id}.{preview domain}` is that deploy's preview (once finished); a hostname in a
 * project's `domains` is that environment's live deploy. Anything else is the service itself.
 */
export async function resolveHost(db: Db, hostHeader: string | undefined, previewDomain: string, serviceHostnames: ReadonlySet<string>): Promise<HostedTarget | null> {
  const hostname = hostnameOf(hostHeader);
  // The service's own names and bare addresses are never a site: health checks, the CLI API
  // and the settings area are answered without a lookup, even while the database is away.
  if (hostname === null || serviceHostnames.has(hostname) || /^[\d.]+$/.test(hostname)) return null;
  const suffix = `.${previewDomain}`;
  if (hostname.endsWith(suffix)) {
    const label = hostname.slice(0, -suffix.length);
    if (deployLabel.test(label)) {
      const deploy = await findDeployById(db, label);
      return { projectId: deploy?.project_id ?? '', environment: deploy?.environment ?? 'production', deployId: deploy?.state === 'ready' ? deploy.id : null };
    }
  }
  const site = await hostedSite(db, hostname);
  return site ?? null;
}

/** The hostname of a `Host` header, lower case, without port or final dot; null when malformed. */
export function hostnameOf(host: string | undefined): string | null {
  if (host === undefined || host === '') return null;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d+$/, '');
  const hostname = name.toLowerCase().replace(/\.$/, '');
  return /^[a-z0-9.-]{1,253}$/.test(hostname) ? hostname : null;
}
