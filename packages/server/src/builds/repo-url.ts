import { lookup } from 'node:dns/promises';
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ServiceError } from '@svc/protocol';
import { refusedLiteralReason, refusedResolution } from '../net/address-policy.js';

export interface RepoUrlPolicy {
  /** `svc serve --allow-local-repos`: `file://` URLs and absolute local paths are accepted. */
  readonly allowLocalRepos: boolean;
  /** `svc serve --allow-private-targets`: loopback and private addresses may be reached. */
  readonly allowPrivateTargets: boolean;
}

/**
 * A repository's URL as stored, or `validation_failed` saying why not: `https://` (no
 * user or password in it: a private repository's token is given apart and stored sealed),
 * or with `--allow-local-repos` a `file://` URL or an absolute path (kept as a `file://`
 * URL). Hosts given as IP addresses obey the webhook address policy here; names are
 * checked when they are resolved ({@link checkRepoAddress}).
 */
export function normalizeRepoUrl(text: string, policy: RepoUrlPolicy): string {
  const refuse = (problem: string) => new ServiceError('validation_failed', `the repository ${problem}`, { errors: { repo: problem } });
  const trimmed = text.trim();
  if (isAbsolute(trimmed) && !trimmed.includes('://')) {
    if (!policy.allowLocalRepos) throw refuse('is a local path; only a server started with --allow-local-repos takes one (development and tests)');
    return pathToFileURL(trimmed).href;
  }
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw refuse('must be an https:// URL, such as https://github.com/acme/site.git');
  }
  if (url.protocol === 'file:') {
    if (!policy.allowLocalRepos) throw refuse('is a file:// URL; only a server started with --allow-local-repos takes one (development and tests)');
    return url.href;
  }
  if (url.protocol !== 'https:') throw refuse(`must be an https:// URL, not ${url.protocol.replace(/:$/, '')}`);
  if (url.username !== '' || url.password !== '') throw refuse('must not hold a user or password: give a token with --token-env instead; it is stored encrypted');
  if (url.search !== '' || url.hash !== '') throw refuse('must not have a query or fragment');
  if (!policy.allowPrivateTargets) {
    const reason = refusedLiteralReason(url);
    if (reason !== null) throw refuse(`cannot be reached: ${reason}`);
  }
  return url.href;
}

/**
 * Before anything is fetched: every address the repository's host name resolves to obeys
 * the webhook address policy (docs/webhooks.md), unless private targets are allowed.
 * Returns why not, or null.
 */
export async function checkRepoAddress(repoUrl: string, policy: RepoUrlPolicy): Promise<string | null> {
  const url = new URL(repoUrl);
  if (url.protocol === 'file:') return policy.allowLocalRepos ? null : 'local repositories need --allow-local-repos';
  if (policy.allowPrivateTargets) return null;
  const literal = refusedLiteralReason(url);
  if (literal !== null) return literal;
  let addresses: { address: string }[];
  try {
    addresses = await lookup(url.hostname, { all: true });
  } catch (error) {
    return `cannot resolve ${url.hostname} (${(error as NodeJS.ErrnoException).code ?? 'failed'})`;
  }
  return refusedResolution(url.hostname, addresses.map((entry) => entry.address));
}
