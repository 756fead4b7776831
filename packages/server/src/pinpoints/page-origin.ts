import type { PinpointsEnvironment } from './widget-settings.js';
import { isPinpointsEnvironment } from './widget-settings.js';

export interface ProjectDomain {
  readonly hostname: string;
  readonly environment: string;
}

/** `localhost`, `*.localhost`, `127.0.0.1` and `[::1]`: a developer's own machine (docs/pinpoints.md). */
export function isLocalDevelopmentHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host === 'localhost' || host.endsWith('.localhost') || host === '127.0.0.1' || host === '[::1]' || host === '::1';
}

/**
 * The environment of a page on `hostname`: the one whose `domains` list it, else
 * `development` on a local development host, else none (the widget stays off).
 */
export function environmentOfHost(hostname: string, domains: readonly ProjectDomain[]): PinpointsEnvironment | null {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  const listed = domains.find((domain) => domain.hostname.toLowerCase() === host);
  if (listed && isPinpointsEnvironment(listed.environment)) return listed.environment;
  return isLocalDevelopmentHost(host) ? 'development' : null;
}

/** The hostname of an `Origin` header, or null for a missing, opaque (`null`) or malformed one. */
export function originHostname(origin: string | undefined): string | null {
  if (origin === undefined || origin === 'null') return null;
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.hostname : null;
  } catch {
    return null;
  }
}

/**
 * Whether a page of `origin` may talk to the project's widget API: any origin when the
 * project has no domains; else one of its domains or a local development host.
 */
export function originAllowed(origin: string | undefined, domains: readonly ProjectDomain[]): boolean {
  if (domains.length === 0) return true;
  const hostname = originHostname(origin);
  if (hostname === null) return false;
  return isLocalDevelopmentHost(hostname) || domains.some((domain) => domain.hostname.toLowerCase() === hostname.toLowerCase());
}
