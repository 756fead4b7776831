import type { Environment } from './environment.js';

/** The widget's side of `/api/p/{key}/…` (docs/pinpoints.md, "The HTTP API"). */
export interface WidgetSettings {
  readonly enabled: boolean;
  readonly redact: readonly string[];
}

export interface SentRequest {
  readonly id: string;
  readonly readToken: string;
}

export interface Thread {
  readonly id: string;
  readonly status: 'open' | 'resolved';
  readonly comment: string;
  readonly createdAt: string;
  readonly replies: readonly { author: string; message: string; createdAt: string }[];
}

/** A refusal the visitor is told about in words; `fields` holds per-field problems (422), `code` the server's error code. */
export class WidgetApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly fields: Readonly<Record<string, string>> = {},
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

export class WidgetApi {
  private readonly base: string;

  constructor(origin: string, key: string) {
    this.base = `${origin}/api/p/${encodeURIComponent(key)}`;
  }

  async settings(environment: Environment | null, host: string): Promise<WidgetSettings> {
    const query = new URLSearchParams(environment === null ? { host } : { environment, host });
    const body = await this.call(`${this.base}/settings?${query.toString()}`);
    return { enabled: body['enabled'] === true, redact: Array.isArray(body['redact']) ? (body['redact'] as unknown[]).filter((item): item is string => typeof item === 'string') : [] };
  }

  async send(form: FormData): Promise<SentRequest> {
    const body = await this.call(`${this.base}/requests`, { method: 'POST', body: form });
    return { id: String(body['id']), readToken: String(body['readToken']) };
  }

  /** The request's thread, or null when it no longer exists. */
  async thread(sent: SentRequest): Promise<Thread | null> {
    try {
      const body = await this.call(`${this.base}/requests/${encodeURIComponent(sent.id)}?token=${encodeURIComponent(sent.readToken)}`);
      return body['request'] as Thread;
    } catch (error) {
      if (error instanceof WidgetApiError && error.status === 404) return null;
      throw error;
    }
  }

  private async call(url: string, init: RequestInit = {}): Promise<Record<string, unknown>> {
    const response = await fetch(url, { ...init, credentials: 'omit', mode: 'cors' });
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (response.ok && body['ok'] === true) return body;
    const code = typeof body['error'] === 'string' ? body['error'] : null;
    throw new WidgetApiError(refusal(response.status, body), response.status, (body['errors'] ?? {}) as Record<string, string>, code);
  }
}

function refusal(status: number, body: Record<string, unknown>): string {
  switch (body['error']) {
    case 'rate_limited':
      return `Too many requests from here; try again in ${Number(body['retryAfter'] ?? 60)} seconds.`;
    case 'payload_too_large':
      return 'The request is too large to send.';
    case 'quota_exceeded':
      return 'This site keeps no more screenshots just now.';
    case 'validation_failed':
      return 'Please check the fields marked below.';
    case 'pinpoints_disabled':
      return 'Feedback is switched off here.';
    case 'forbidden_origin':
      return 'This site may not send feedback to this project.';
    default:
      return status >= 500 || status === 0 ? 'The feedback service is not reachable right now; please try again.' : 'The request was refused.';
  }
}
