/**
 * What a push webhook's headers say before its body is read (docs/hosting.md, "Deploys from
 * git"): which host signed it, which event it says it is, and the host's id of the delivery.
 * Text is kept printable and short: it is shown in the inbound log.
 */
export type GitHost = 'github' | 'gitea' | 'gitlab';

export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

export interface PushHeaders {
  /** The host whose signature header the request carries; null when it carries none. */
  readonly host: GitHost | null;
  readonly event: string | null;
  /** The host's id of this delivery (a redelivery repeats it); null when the host sends none. */
  readonly deliveryId: string | null;
}

const eventHeaders = ['x-github-event', 'x-gitea-event', 'x-forgejo-event', 'x-gitlab-event'] as const;
const deliveryHeaders = ['x-github-delivery', 'x-gitea-delivery', 'x-forgejo-delivery', 'x-gitlab-event-uuid'] as const;

export function firstHeader(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A header value kept for showing: printable ASCII only, at most `length` characters. */
export function printable(value: string, length: number): string {
  return value.replace(/[^\x20-\x7e]/g, '?').slice(0, length);
}

function firstOf(headers: RequestHeaders, names: readonly string[], length: number): string | null {
  for (const name of names) {
    const value = firstHeader(headers, name);
    if (value !== undefined) return printable(value, length);
  }
  return null;
}

function signedBy(headers: RequestHeaders): GitHost | null {
  if (firstHeader(headers, 'x-hub-signature-256') !== undefined) return 'github';
  if (firstHeader(headers, 'x-gitea-signature') !== undefined || firstHeader(headers, 'x-forgejo-signature') !== undefined) return 'gitea';
  if (firstHeader(headers, 'x-gitlab-token') !== undefined) return 'gitlab';
  return null;
}

export function readPushHeaders(headers: RequestHeaders): PushHeaders {
  const deliveryId = firstOf(headers, deliveryHeaders, 100);
  return { host: signedBy(headers), event: firstOf(headers, eventHeaders, 100), deliveryId: deliveryId === '' ? null : deliveryId };
}
