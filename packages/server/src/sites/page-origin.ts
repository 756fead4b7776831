import type { EnvironmentName } from '@svc/protocol/api';

const environmentNames: readonly string[] = ['production', 'staging', 'development'] satisfies EnvironmentName[];
const isEnvironmentName = (value: string): value is EnvironmentName => environmentNames.includes(value);

/**
 * Which pages are a project's own (docs/pinpoints.md, docs/form-endpoint.md "Allowed
 * origins"): the one policy the widget and forms share. A project's pages are those on one
 * of its domains, and a developer's own machine is everyone's.
 */

export interface ProjectDomain {
  /** Lower case, without a final dot. */
  readonly hostname: string;
  readonly environment: string;
}

/** A hostname as the comparisons here take it: lower case, without a final dot. */
export function normalizeHostname(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, '');
}

/** `localhost`, `*.localhost`, `127.0.0.1` and `[::1]`: a developer's own machine (docs/pinpoints.md). */
export function isLocalDevelopmentHost(hostname: string): boolean {
  const host = normalizeHostname(hostname);
  return host === 'localhost' || host.endsWith('.localhost') || host === '127.0.0.1' || host === '[::1]' || host === '::1';
}

/** Whether `hostname` is one of the project's (`hostnames` as ProjectSites gives them). */
export function isProjectHost(hostname: string, hostnames: readonly string[]): boolean {
  return hostnames.includes(normalizeHostname(hostname));
}

/**
 * The environment of a page on `hostname`: the one whose `domains` list it, else
 * `development` on a local development host, else none (the widget stays off).
 */
export function environmentOfHost(hostname: string, domains: readonly ProjectDomain[]): EnvironmentName | null {
  const host = normalizeHostname(hostname);
  const listed = domains.find((domain) => domain.hostname === host);
  if (listed && isEnvironmentName(listed.environment)) return listed.environment;
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
 * Whether a page of `origin` is one of the project's: on one of its `hostnames` or on a
 * local development host. A missing or malformed origin is none of them. With
 * `openWithoutDomains` (the widget's rule), a project that names no domains yet takes pages
 * of any origin; without it (a form's `--origins project`), only local development hosts.
 */
export function originAllowed(origin: string | undefined, hostnames: readonly string[], rule: { readonly openWithoutDomains: boolean }): boolean {
  if (rule.openWithoutDomains && hostnames.length === 0) return true;
  const hostname = originHostname(origin);
  if (hostname === null) return false;
  return isLocalDevelopmentHost(hostname) || isProjectHost(hostname, hostnames);
}
