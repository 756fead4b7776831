import { neverDeployed, type SkipReason } from '@svc/protocol/site-files';

const neverDeployedWhy: Partial<Record<SkipReason, string>> = {
  hidden: 'names starting with "." are never published, except the .well-known folder',
  node_modules: 'node_modules is never published',
  service_json: 'service.json is never published',
  svc_state: "svc's own state is never published",
};

/**
 * A deploy's file path as the CLI sends it: relative, `/`-separated, no `.` or `..`
 * segment, no empty segment, no backslash or control character, at most 1,024 characters,
 * and nothing a deploy never uploads (docs/hosting.md#what-is-never-uploaded: a client that
 * sends `.npmrc` anyway is refused). Null when it is fine, else what is wrong. Paths that
 * pass can never name anything outside the deploy: they are looked up as keys, never joined
 * to a directory.
 */
export function deployPathProblem(path: string): string | null {
  if (path.length === 0 || path.length > 1024) return 'must be 1 to 1024 characters';
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  if (/[\u0000-\u001f\u007f\\]/.test(path)) return 'must not hold control characters or backslashes';
  if (path.startsWith('/')) return 'must be relative (no leading /)';
  if (path.split('/').some((segment) => segment === '' || segment === '.' || segment === '..')) return 'must not have empty, . or .. segments';
  const never = neverDeployed(path);
  if (never !== null) return `is never deployed: ${neverDeployedWhy[never.reason] ?? 'it is skipped'}`;
  return null;
}
