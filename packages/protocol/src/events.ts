/**
 * The typed event catalog: every event type the service can send, its family, a one-line
 * meaning, and the shape of its `data`. Webhook patterns are checked against it, and
 * `svc webhooks test --event TYPE` builds its sample from it.
 */
export const eventFamilies = ['form', 'deploy', 'request'] as const;
export type EventFamily = (typeof eventFamilies)[number];

export interface FormRef {
  id: string;
  slug: string;
  name: string | null;
}

export interface SubmissionFile {
  field: string;
  name: string;
  size: number;
  contentType: string;
  sha256: string;
}

export interface SubmissionData {
  form: FormRef;
  submission: {
    id: string;
    fields: Record<string, unknown>;
    files: SubmissionFile[];
    createdAt: string;
    /** `form.submission.spam` only: why (docs/form-endpoint.md, "Spam protection"). */
    spamReason?: 'honeypot' | 'captcha_unverified' | 'links' | 'manual';
  };
}

/** A deleted submission: which one, never its fields (docs/privacy.md). */
export interface SubmissionDeletedData {
  form: FormRef;
  submission: { id: string; createdAt: string; deletedAt: string };
}

export type EnvironmentName = 'production' | 'staging' | 'development';

/** A deploy as events carry it (docs/hosting.md). */
export interface DeployInfo {
  id: string;
  /** The environment it was deployed to. */
  environment: EnvironmentName;
  /** live: an environment serves it; superseded: finished, not served, kept for rollback. */
  state: 'uploading' | 'live' | 'superseded' | 'failed';
  /** The environments that serve it. */
  liveIn: EnvironmentName[];
  branch: string | null;
  commit: string | null;
  files: number;
  bytes: number;
  /** Its environment's first domain; null when the environment has none. */
  url: string | null;
  previewUrl: string;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

export interface DeployData {
  deploy: DeployInfo;
  /** On `deploy.promoted`: the environment it was made live on, and the deploy that served it before. */
  promotion?: { environment: EnvironmentName; previous: string | null };
}

/** A request of the Pinpoints inbox as events carry it: the screenshot by size, type and hash, never its bytes. */
export interface RequestInfo {
  id: string;
  status: 'open' | 'resolved';
  environment: 'production' | 'staging' | 'development';
  /** The page the visitor was on. */
  url: string;
  /** The element the visitor pointed at, as a CSS selector; null when none. */
  selector: string | null;
  comment: string;
  name: string | null;
  email: string | null;
  /** `WIDTHxHEIGHT` of the visitor's viewport in CSS pixels. */
  viewport: string | null;
  /** Where the element was on the screenshot: its rectangle in CSS pixels of the viewport; null when none. */
  elementBox: { x: number; y: number; width: number; height: number } | null;
  /** Present only where the project keeps visitor IPs (`pinpoints.storeIp`, default true). */
  ip?: string;
  screenshot: { size: number; contentType: 'image/png'; sha256: string } | null;
  /** Why there is no screenshot, as the widget reported it; null when there is one. */
  screenshotError: string | null;
  createdAt: string;
}

export interface RequestReply {
  id: string;
  /** The name of the token that replied. */
  author: string;
  message: string;
  createdAt: string;
}

export interface RequestData {
  request: RequestInfo;
  /** On `request.replied`: the new reply. */
  reply?: RequestReply;
}

/** Event type → the type of its `data`. */
export interface EventDataMap {
  'form.submission.created': SubmissionData;
  'form.submission.spam': SubmissionData;
  'form.submission.deleted': SubmissionDeletedData;
  'deploy.started': DeployData;
  'deploy.succeeded': DeployData;
  'deploy.failed': DeployData;
  'deploy.promoted': DeployData;
  'request.created': RequestData;
  'request.replied': RequestData;
  'request.resolved': RequestData;
  'request.reopened': RequestData;
}

export type EventType = keyof EventDataMap;

export const eventCatalog: Readonly<Record<EventType, { family: EventFamily; description: string; producedNow: boolean }>> = {
  'form.submission.created': { family: 'form', description: 'A submission that is not spam was stored, or one was moved from Spam to the inbox.', producedNow: true },
  'form.submission.spam': { family: 'form', description: 'A submission was routed to Spam, or moved there by hand.', producedNow: true },
  'form.submission.deleted': { family: 'form', description: 'A submission was deleted; the event carries its id, not its fields.', producedNow: true },
  'deploy.started': { family: 'deploy', description: 'A deploy started: its files are being uploaded.', producedNow: true },
  'deploy.succeeded': { family: 'deploy', description: 'A deploy finished and is live on its environment.', producedNow: true },
  'deploy.failed': { family: 'deploy', description: 'A deploy failed (its upload stopped); the one live before stays live.', producedNow: true },
  'deploy.promoted': { family: 'deploy', description: 'A deploy was made live on another environment, or rolled back to.', producedNow: true },
  'request.created': { family: 'request', description: 'A visitor sent a request through the Pinpoints widget.', producedNow: true },
  'request.replied': { family: 'request', description: 'Somebody replied to a request.', producedNow: true },
  'request.resolved': { family: 'request', description: 'A request was marked resolved.', producedNow: true },
  'request.reopened': { family: 'request', description: 'A resolved request was opened again.', producedNow: true },
};

export const eventTypes = Object.keys(eventCatalog) as EventType[];

export function isEventType(value: string): value is EventType {
  return Object.hasOwn(eventCatalog, value);
}

/** The JSON body of every webhook delivery (docs/webhooks.md). */
export interface EventEnvelope<T extends EventType = EventType> {
  id: string;
  type: T;
  createdAt: string;
  workspace: string;
  project: string;
  data: EventDataMap[T];
}

/**
 * A webhook subscribes with patterns: `*`, a family wildcard (`form.*`, `deploy.*`,
 * `request.*`) or an exact event type from the catalog.
 */
export function isValidEventPattern(pattern: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return (eventFamilies as readonly string[]).includes(pattern.slice(0, -2));
  return isEventType(pattern);
}

export function eventMatches(pattern: string, type: string): boolean {
  if (pattern === '*') return true;
  if (pattern.endsWith('.*')) return type.startsWith(pattern.slice(0, -1));
  return pattern === type;
}

export function eventMatchesAny(patterns: readonly string[], type: string): boolean {
  return patterns.some((pattern) => eventMatches(pattern, type));
}
