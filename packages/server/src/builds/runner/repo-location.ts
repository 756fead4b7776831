import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasControlCharacter } from './git-names.js';

/** Where a repository is: an https URL, or (development and tests only) a path on this machine. */
export type RepoLocation = { readonly kind: 'https'; readonly url: URL } | { readonly kind: 'local'; readonly path: string };

/**
 * Reads a repository address as `git` would and decides whether builds may fetch from it:
 * `https://` always (credentials in the URL refused: tokens travel apart), `file://` URLs
 * and absolute paths only with `allowLocalRepos` (`svc serve --allow-local-repos`); every
 * other transport (ssh, git://, http://, `ext::`) is refused. Returns the reason as text.
 */
export function readRepoLocation(repoUrl: string, allowLocalRepos: boolean): RepoLocation | { readonly refused: string } {
  const text = repoUrl.trim();
  if (text === '' || text.length > 2048) return { refused: 'the repository address is empty or too long' };
  if (hasControlCharacter(text)) return { refused: 'the repository address holds control characters' };
  if (text.startsWith('-')) return { refused: 'the repository address may not start with "-"' };
  const local = localPath(text);
  if (local !== null) {
    if (!allowLocalRepos) return { refused: 'local repositories (file:// and paths) need `svc serve --allow-local-repos`' };
    return { kind: 'local', path: local };
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { refused: 'the repository address is not a URL (https://… expected)' };
  }
  if (url.protocol !== 'https:') return { refused: `only https:// repositories are fetched, not ${url.protocol.replace(/:$/, '')}` };
  if (url.username !== '' || url.password !== '') return { refused: 'the repository URL may not hold credentials; give the token apart (--token-env)' };
  if (url.hostname === '') return { refused: 'the repository URL has no host' };
  return { kind: 'https', url };
}

function localPath(text: string): string | null {
  if (text.startsWith('file:')) {
    try {
      return fileURLToPath(text);
    } catch {
      return null;
    }
  }
  return isAbsolute(text) ? text : null;
}
