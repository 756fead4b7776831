import type { DeployFileRow } from '../store/schema.js';
import type { HeldDeploy } from './deploy-manifests.js';
import { candidateFiles, sitePath } from './site-paths.js';

/** What a deploy answers a request path with (docs/hosting.md#what-is-served). */
export type SiteAnswer =
  /** A file of the deploy: the one the path names, a rule's rewrite (200 or 404), or the deploy's `404.html`. */
  | { readonly kind: 'file'; readonly file: DeployFileRow; readonly status: 200 | 404 }
  /** A rule's redirect. */
  | { readonly kind: 'redirect'; readonly status: 301 | 302 | 303 | 307 | 308; readonly location: string }
  /** Nothing answers and the deploy has no `404.html`: the service's own 404. */
  | { readonly kind: 'missing' };

/**
 * The answer to a path, in order: a rule with `!` that matches; the file the path names
 * (clean URLs); the first rule that matches; the deploy's `404.html` (status 404); the
 * service's 404. A rewrite serves its target's file under the path asked for (a target
 * with no file is a miss). With it, the headers `_headers` sets for the path (none for a
 * redirect). `search` is the query string without `?`.
 */
export async function answerPath(deploy: HeldDeploy, urlPath: string, search: string): Promise<{ answer: SiteAnswer; headers: readonly (readonly [string, string])[] }> {
  const path = sitePath(urlPath);
  if (path === null) return { answer: await missing(deploy), headers: [] };
  const file = await firstFile(deploy, candidateFiles(path));
  const rule = deploy.rules.answer(path.segments, search, file !== undefined);
  if (rule?.kind === 'redirect') return { answer: { kind: 'redirect', status: rule.status, location: rule.location }, headers: [] };
  const headers = deploy.rules.headers(path.segments);
  if (rule?.kind === 'rewrite') {
    const target = sitePath(rule.path);
    const rewritten = target === null ? undefined : await firstFile(deploy, candidateFiles(target));
    return { answer: rewritten === undefined ? await missing(deploy) : { kind: 'file', file: rewritten, status: rule.status }, headers };
  }
  return { answer: file === undefined ? await missing(deploy) : { kind: 'file', file, status: 200 }, headers };
}

async function firstFile(deploy: HeldDeploy, candidates: readonly string[]): Promise<DeployFileRow | undefined> {
  for (const candidate of candidates) {
    const file = await deploy.find(candidate);
    if (file !== undefined) return file;
  }
  return undefined;
}

async function missing(deploy: HeldDeploy): Promise<SiteAnswer> {
  const page = await deploy.find('404.html');
  return page === undefined ? { kind: 'missing' } : { kind: 'file', file: page, status: 404 };
}
