import { signedBy, type GitHost } from './push-webhook.js';

/**
 * What a push webhook says it is, as the inbound log keeps it (docs/hosting.md, "When a push
 * did not deploy"): the host, the event, and, from a verified body only, the ref and commit.
 * Never the body itself, nor any signature or token header.
 */
export interface PushSummary {
  readonly host: GitHost | null;
  readonly event: string | null;
  readonly ref: string | null;
  readonly commit: string | null;
}

type Headers = Readonly<Record<string, string | string[] | undefined>>;

const eventHeaders = ['x-github-event', 'x-gitea-event', 'x-forgejo-event', 'x-gitlab-event'] as const;

/** A header value kept for showing: printable ASCII only, at most `length` characters. */
export function printable(value: string, length: number): string {
  return value.replace(/[^\x20-\x7e]/g, '?').slice(0, length);
}

function eventOf(headers: Headers): string | null {
  for (const name of eventHeaders) {
    const value = headers[name];
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) return printable(first, 100);
  }
  return null;
}

/** Who sent it and which event it says it is: all that is kept of a request whose signature failed. */
export function summarizeUnverified(headers: Headers): PushSummary {
  return { host: signedBy(headers), event: eventOf(headers), ref: null, commit: null };
}

/** The same, with the ref and commit the body names: only for a request whose signature was verified. */
export function summarizeVerified(headers: Headers, body: Buffer): PushSummary {
  let ref: string | null = null;
  let commit: string | null = null;
  try {
    const payload = JSON.parse(body.toString('utf8')) as unknown;
    if (typeof payload === 'object' && payload !== null) {
      const { ref: givenRef, after } = payload as { ref?: unknown; after?: unknown };
      if (typeof givenRef === 'string') ref = printable(givenRef, 300);
      if (typeof after === 'string' && /^[0-9a-f]{40}([0-9a-f]{24})?$/.test(after)) commit = after;
    }
  } catch {
    // Not JSON: the verdict's reason says so; there is no ref to keep.
  }
  return { ...summarizeUnverified(headers), ref, commit };
}
