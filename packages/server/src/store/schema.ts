import type { CaptchaKind } from '@svc/protocol/api';
import type { Generated, Insertable, Selectable } from 'kysely';
import type { FileBlobsTable, FileChunksTable, SubmissionContentsTable, WorkspaceContentsTable } from './schema-files.js';
import type { MembersTable, PeopleTable } from './schema-people.js';
import type { OneTimeLinksTable, SessionsTable } from './schema-sign-in.js';

/**
 * Table types for the query builder (stored contents' in schema-files.ts, people's in
 * schema-people.ts, sessions and one-time links in schema-sign-in.ts). Times are Unix
 * epoch milliseconds (numbers on both backends), booleans are 0/1, JSON documents are text.
 */
export interface Database {
  workspaces: WorkspacesTable;
  projects: ProjectsTable;
  domains: DomainsTable;
  forms: FormsTable;
  submissions: SubmissionsTable;
  idempotency_keys: IdempotencyKeysTable;
  events: EventsTable;
  webhooks: WebhooksTable;
  deliveries: DeliveriesTable;
  delivery_attempts: DeliveryAttemptsTable;
  tokens: TokensTable;
  rate_limits: RateLimitsTable;
  file_blobs: FileBlobsTable;
  file_chunks: FileChunksTable;
  encryption_canary: EncryptionCanaryTable;
  sessions: SessionsTable;
  one_time_links: OneTimeLinksTable;
  requests: RequestsTable;
  request_replies: RequestRepliesTable;
  deploys: DeploysTable;
  deploy_files: DeployFilesTable;
  live_deploys: LiveDeploysTable;
  workspace_contents: WorkspaceContentsTable;
  submission_contents: SubmissionContentsTable;
  git_connections: GitConnectionsTable;
  deploy_hooks: DeployHooksTable;
  builds: BuildsTable;
  inbound_deliveries: InboundDeliveriesTable;
  push_delivery_ids: PushDeliveryIdsTable;
  mail_outbox: MailOutboxTable;
  spent_captcha_solutions: SpentCaptchaSolutionsTable;
  people: PeopleTable;
  members: MembersTable;
  audit_log: AuditLogTable;
}

export interface WorkspacesTable {
  id: string;
  slug: string;
  created_at: number;
}

export interface ProjectsTable {
  id: string;
  workspace_id: string;
  name: string;
  framework: string;
  environments: string;
  pinpoints: string;
  auto: string;
  /** The public Pinpoints widget key (`pk_…`); null until first needed for older projects. */
  widget_key: Generated<string | null>;
  /** Requests older than this are removed by the retention job; null keeps them until deleted. */
  request_retention_seconds: Generated<number | null>;
  created_at: number;
  updated_at: number;
}

export interface DomainsTable {
  hostname: string;
  project_id: string;
  environment: string;
  position: number;
  created_at: number;
}

export interface FormsTable {
  id: string;
  project_id: string;
  slug: string;
  name: string | null;
  endpoint_id: string;
  rate_limit_max: number | null;
  rate_limit_window_seconds: number | null;
  success_url: Generated<string | null>;
  error_url: Generated<string | null>;
  /** JSON array of addresses, or null. */
  notify_emails: Generated<string | null>;
  /** Submissions older than this are removed; null keeps them until deleted. */
  retention_seconds: Generated<number | null>;
  /** The captcha a post must solve (docs/form-endpoint.md, "Spam protection"). */
  captcha: Generated<CaptchaKind>;
  /** The provider's secret key, sealed (secrets/secret-box.ts) for the form's id; null when none. */
  captcha_secret: Generated<string | null>;
  /** More links than this in the fields routes a submission to Spam; null: no limit. */
  max_links: Generated<number | null>;
  /** `any`, `project`, or allowed origins separated by commas. */
  origins: Generated<string>;
  position: Generated<number>;
  created_at: number;
  updated_at: number;
}

export type SubmissionState = 'inbox' | 'spam';
/** The captcha a form's posts must solve: one definition, in @svc/protocol. */
export type { CaptchaKind };
/** Why a submission is in Spam (docs/form-endpoint.md, "Spam protection"). */
export type SpamReason = 'honeypot' | 'captcha_unverified' | 'links' | 'manual';

export interface SubmissionsTable {
  id: string;
  form_id: string;
  state: SubmissionState;
  fields: string;
  files: string;
  client_ip: string | null;
  user_agent: string | null;
  idempotency_key: string | null;
  /** Why it is in Spam; null in the inbox (and for spam stored before reasons were kept). */
  spam_reason: Generated<SpamReason | null>;
  created_at: number;
}

/** ALTCHA solutions already spent, by digest, until their challenge expires. */
export interface SpentCaptchaSolutionsTable {
  digest: string;
  expires_at: number;
}

export interface IdempotencyKeysTable {
  form_id: string;
  key: string;
  submission_id: string;
  created_at: number;
}

export interface EventsTable {
  id: string;
  project_id: string;
  type: string;
  payload: string;
  created_at: number;
  dispatched_at: number | null;
  /** 1 for a test event (`svc webhooks test`): left out of the figures, its deliveries marked. */
  test: Generated<number>;
}

export interface WebhooksTable {
  id: string;
  project_id: string;
  url: string;
  events: string;
  description: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
  enabled: Generated<number>;
  disabled_reason: string | null;
  /** `http` (a webhook) or `email` (a form's notification emails, url `mailto:…`). */
  kind: Generated<WebhookKind>;
  /** The form whose submissions an email target reports; null for webhooks. */
  form_id: Generated<string | null>;
  /** When the current run of failed attempts began; null when the last attempt succeeded. */
  failing_since: Generated<number | null>;
  created_at: number;
  updated_at: number;
}

export type WebhookKind = 'http' | 'email';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface DeliveriesTable {
  id: string;
  event_id: string;
  webhook_id: string;
  status: DeliveryStatus;
  attempts: Generated<number>;
  /** Attempts made before the current retry budget (a resend by hand starts a new one). */
  retry_base: Generated<number>;
  next_attempt_at: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  completed_at: number | null;
}

export interface DeliveryAttemptsTable {
  id: string;
  delivery_id: string;
  attempt: number;
  started_at: number;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_body: string | null;
  /** The request's headers as sent (JSON object); null for attempts made before it was kept. */
  request_headers: string | null;
}

export interface TokensTable {
  id: string;
  name: string;
  token_hash: string;
  workspace_id: string | null;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface RateLimitsTable {
  key: string;
  points: number;
  expires_at: number;
}

/** One row: a value encrypted with the secrets key, to refuse a start with another key. */
export interface EncryptionCanaryTable {
  id: number;
  value: string;
  created_at: number;
}

/** open and resolved are the inbox; spam is what the honeypot caught (docs/pinpoints.md). */
export type RequestStatus = 'open' | 'resolved' | 'spam';

/** A request sent through the Pinpoints widget. */
export interface RequestsTable {
  id: string;
  project_id: string;
  environment: string;
  status: RequestStatus;
  comment: string;
  url: string;
  selector: string | null;
  name: string | null;
  email: string | null;
  /** `WIDTHxHEIGHT` in CSS pixels, as the widget saw it. */
  viewport: string | null;
  /**
   * The picked element's rectangle in CSS pixels of the viewport (the screenshot's frame);
   * all null when there is none (migration 0012).
   */
  element_x: Generated<number | null>;
  element_y: Generated<number | null>;
  element_width: Generated<number | null>;
  element_height: Generated<number | null>;
  user_agent: string | null;
  /** Null when the project's `pinpoints.storeIp` is false. */
  client_ip: string | null;
  screenshot_sha256: string | null;
  screenshot_size: number | null;
  /** Why the request came without a screenshot, as the widget said. */
  screenshot_error: string | null;
  /** SHA-256 (hex) of the reporter's read token. */
  read_token_hash: string;
  created_at: number;
  updated_at: number;
}

export interface RequestRepliesTable {
  id: string;
  request_id: string;
  /** The name of the token that replied. */
  author: string;
  message: string;
  created_at: number;
}

/** uploading: files arriving; ready: finalised (live where an environment points at it); failed. */
export type DeployState = 'uploading' | 'ready' | 'failed';

/** A deploy of a project's build output (docs/hosting.md). */
export interface DeploysTable {
  /** `dpl-` and 26 base32 characters: a DNS label, the deploy's preview hostname. */
  id: string;
  project_id: string;
  environment: string;
  state: DeployState;
  branch: string | null;
  git_commit: string | null;
  file_count: number;
  total_bytes: number;
  /** Why it failed. */
  error: string | null;
  /** The name of the token that deployed. */
  created_by: string | null;
  created_at: number;
  /** When it last made progress; an upload idle past the deploy timeout fails. */
  touched_at: number;
  finished_at: number | null;
  /** Where it came from, as JSON: null for `svc deploy`, `{"type":"git",…}` for a build (docs/hosting.md). */
  source: string | null;
}

export interface DeployFilesTable {
  deploy_id: string;
  /** Relative, `/`-separated, no leading slash: `index.html`, `assets/app.3f9a.js`. */
  path: string;
  sha256: string;
  size: number;
}

export interface LiveDeploysTable {
  project_id: string;
  environment: string;
  deploy_id: string;
  updated_at: number;
}

/** A project's repository (docs/hosting.md, "Deploys from git"). */
export interface GitConnectionsTable {
  project_id: string;
  /** `git_…`: names the push webhook's address. */
  id: string;
  repo_url: string;
  /** The access token of a private repository, sealed; null for a public one. */
  token_sealed: string | null;
  /** The push webhook's secret, sealed (GitHub and Gitea sign with it). */
  push_secret_sealed: string;
  created_at: number;
  updated_at: number;
}

export interface DeployHooksTable {
  id: string;
  project_id: string;
  name: string;
  environment: string;
  /** SHA-256 (hex) of the secret in the hook's URL. */
  secret_hash: string;
  created_at: number;
  last_used_at: number | null;
}

export type BuildState = 'queued' | 'building' | 'succeeded' | 'failed' | 'canceled';
export type BuildTrigger = 'push' | 'hook';

export interface BuildsTable {
  id: string;
  project_id: string;
  environment: string;
  branch: string;
  /** Null while a hook's build waits: the branch's head is read when it starts. */
  git_commit: string | null;
  trigger: BuildTrigger;
  /** `git push`, or the deploy hook's name. */
  created_by: string;
  state: BuildState;
  error: string | null;
  /** The last 1 MiB of the build's output. */
  log: string;
  deploy_id: string | null;
  lease_owner: string | null;
  lease_expires_at: number | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

export type InboundVerdict = 'accepted' | 'ignored' | 'refused';

/**
 * One push webhook or deploy hook call, with what the service did with it (docs/hosting.md,
 * "When a push did not deploy"). Never its body, signature, secret or the hook's URL.
 */
export interface InboundDeliveriesTable {
  /** `inb_…`, in the order received. */
  id: string;
  project_id: string;
  received_at: number;
  /** `push` (a push webhook) or `hook` (a deploy hook). */
  source: 'push' | 'hook';
  /** The host whose signature header a push carried: github, gitea or gitlab; null for a hook or an unsigned push. */
  host: string | null;
  hook_id: string | null;
  /** The hook's name when it was called. */
  hook_name: string | null;
  /** The event header as sent (`push`, `ping`, `Push Hook`, …), 100 printable characters at most. */
  event: string | null;
  /** The pushed ref (`refs/heads/main`, `refs/tags/v1`), only from a verified push. */
  ref: string | null;
  git_commit: string | null;
  /** The environment it concerns, when it concerns one. */
  environment: string | null;
  verdict: InboundVerdict;
  /** Why it was ignored or refused; null when accepted. */
  reason: string | null;
  /** The build it queued, when accepted. */
  build_id: string | null;
}

export type InboundDeliveryRow = Selectable<InboundDeliveriesTable>;

/** An email with a one-time link, waiting to be sent (docs/members.md, "Emails that carry a link"). */
export interface MailOutboxTable {
  id: string;
  purpose: string;
  recipient: string;
  /** The whole message, sealed with the server's key; null once sent or given up. */
  message_sealed: string | null;
  status: 'pending' | 'sent' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: number;
  lease_owner: string | null;
  lease_expires_at: number | null;
  last_error: string | null;
  /** When its link stops working: there is no point sending it after. */
  expires_at: number;
  created_at: number;
  finished_at: number | null;
}

export type MailOutboxRow = Selectable<MailOutboxTable>;

/** Push deliveries taken in the last day, by their host's delivery id (replays are ignored). */
export interface PushDeliveryIdsTable {
  connection_id: string;
  delivery_id: string;
  received_at: number;
}

export type GitConnectionRow = Selectable<GitConnectionsTable>;
export type DeployHookRow = Selectable<DeployHooksTable>;
export type BuildRow = Selectable<BuildsTable>;
export type DeployRow = Selectable<DeploysTable>;
export type DeployFileRow = Selectable<DeployFilesTable>;
export type RequestRow = Selectable<RequestsTable>;
export type RequestReplyRow = Selectable<RequestRepliesTable>;
export type WorkspaceRow = Selectable<WorkspacesTable>;
export type ProjectRow = Selectable<ProjectsTable>;
export type FormRow = Selectable<FormsTable>;
export type SubmissionRow = Selectable<SubmissionsTable>;
export type NewSubmission = Insertable<SubmissionsTable>;
export type EventRow = Selectable<EventsTable>;
export type NewEvent = Insertable<EventsTable>;
export type WebhookRow = Selectable<WebhooksTable>;
export type DeliveryRow = Selectable<DeliveriesTable>;
export type DeliveryAttemptRow = Selectable<DeliveryAttemptsTable>;
export type TokenRow = Selectable<TokensTable>;

/** One entry of the audit log (docs/privacy.md): who changed what, when, from where. */
export interface AuditLogTable {
  id: string;
  at: number;
  /** null for a change outside any workspace (an admin token created or revoked, an admin's sign-in). */
  workspace_id: string | null;
  project_id: string | null;
  actor_type: string;
  actor_id: string;
  /** The actor's name when they acted. */
  actor_name: string;
  action: string;
  object_type: string | null;
  object_id: string | null;
  /** The object's name when it changed (a member's email, a token's name); null where none is kept. */
  object_name: string | null;
  /** What a change of one value (a role, a name) changed it from and to. */
  change_from: string | null;
  change_to: string | null;
  ip: string | null;
}
export type AuditLogRow = Selectable<AuditLogTable>;
