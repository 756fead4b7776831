import { printable, type PushHeaders } from './push-headers.js';

/**
 * A signed push webhook's body, parsed once (docs/hosting.md, "Deploys from git"): what it
 * asks for (a push to a branch, a ping, or something ignored and why) and what the inbound
 * log keeps of it. Only ever called on a body whose signature held.
 */
export type PushIntent =
  | { readonly kind: 'ping' }
  | { readonly kind: 'push'; readonly branch: string; readonly commit: string }
  | { readonly kind: 'ignored'; readonly reason: string };

export interface PushEvent {
  readonly headers: PushHeaders;
  /** The ref and commit the body names, printable, as the inbound log keeps them. */
  readonly ref: string | null;
  readonly commit: string | null;
  readonly intent: PushIntent;
}

const zeroCommit = /^0{40}$|^0{64}$/;
const commitPattern = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

export function parsePushEvent(headers: PushHeaders, body: Buffer): PushEvent {
  const event = headers.event;
  if (event === 'ping') return { headers, ref: null, commit: null, intent: { kind: 'ping' } };
  let payload: unknown;
  try {
    payload = JSON.parse(body.toString('utf8'));
  } catch {
    payload = undefined;
  }
  const { ref: givenRef, after, deleted } = (typeof payload === 'object' && payload !== null ? payload : {}) as { ref?: unknown; after?: unknown; deleted?: unknown };
  const ref = typeof givenRef === 'string' ? printable(givenRef, 300) : null;
  const commit = typeof after === 'string' && commitPattern.test(after) ? after : null;
  const ignored = (reason: string): PushEvent => ({ headers, ref, commit, intent: { kind: 'ignored', reason } });
  if (event !== null && event !== 'push' && event !== 'Push Hook') return ignored(`not a push event (${event})`);
  if (payload === undefined) return ignored('the body is not JSON (set the webhook\'s content type to application/json)');
  if (typeof payload !== 'object' || payload === null) return ignored('the body is not a push event');
  if (typeof givenRef !== 'string') return ignored('the body names no ref');
  if (givenRef.startsWith('refs/tags/')) return ignored(`a tag (${givenRef.slice('refs/tags/'.length, 300)}), not a branch`);
  if (!givenRef.startsWith('refs/heads/')) return ignored(`not a branch (${givenRef.slice(0, 300)})`);
  const branch = givenRef.slice('refs/heads/'.length);
  if (deleted === true || (typeof after === 'string' && zeroCommit.test(after))) return ignored(`the branch ${branch} was deleted`);
  if (commit === null) return ignored('the body names no commit');
  return { headers, ref, commit, intent: { kind: 'push', branch, commit } };
}
