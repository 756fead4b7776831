import type { Logger } from 'pino';
import type { RateLimitPolicy } from '@svc/protocol';
import type { InviteLimits, InvitePolicies } from '../auth/invite-limits.js';
import type { BuildSettings } from '../builds/build-settings.js';
import type { MailDelivery } from '../delivery/attempt-delivery.js';
import type { DeliverySettings } from '../delivery/delivery-settings.js';
import type { FormDirectory } from '../forms/form-directory.js';
import type { DeployLimits } from '../deploys/deploy-limits.js';
import type { Store } from '../store/store.js';
import type { SecretBox } from '../secrets/secret-box.js';

// Who is acting is decided by auth/ (a token or a signed-in person); operations take it with every call.
export { isAdmin, isPerson, membershipIn, type MemberRole, type Membership, type PersonPrincipal, type Principal, type TokenPrincipal } from '../auth/principal.js';

/**
 * What operations (and the workers and routes that run them) read of the server's settings
 * (docs/server.md): resolved and frozen once at start (`createOperationContext`), never the
 * whole of `svc serve`'s options.
 */
export interface OperationSettings {
  readonly dataDir: string;
  /** Whether webhooks and repositories may name private, loopback and other refused addresses (net/address-policy.ts). */
  readonly allowPrivateTargets: boolean;
  /** Limits of one deploy (docs/hosting.md). */
  readonly deployLimits: DeployLimits;
  /** Previews answer at `{deploy id}.{previewDomain}` (docs/hosting.md). */
  readonly previewDomain: string;
  /** An upload that makes no progress for this long fails (its deploy is marked failed). */
  readonly deployTimeoutMs: number;
  /** Builds from git (docs/hosting.md, "Deploys from git"). */
  readonly builds: BuildSettings;
  /** Bytes of form files and Pinpoints screenshots one project may keep (docs/hosting.md, "Upload quota"). */
  readonly uploadQuotaBytes: number;
  /** Webhooks (not counting notification emails) one project may have. */
  readonly maxWebhooksPerProject: number;
  /** The rate limit of a form that sets none (and of Pinpoints requests). */
  readonly rateLimit: RateLimitPolicy;
  /** The SMTP server that sends notification emails (`smtp://` or `smtps://`, may hold a password: never logged). */
  readonly smtpUrl: string | undefined;
  /** The sender of notification emails: `address` or `Name <address>`. */
  readonly mailFrom: string | undefined;
  /** Invites per workspace and per address (docs/members.md, "Inviting"). */
  readonly invites: InvitePolicies;
}

/**
 * What every operation may use. Operations are plain functions of (context, principal,
 * input) that return data or throw a ServiceError; the CLI API, the CLI (through it) and the
 * settings pages all call the same functions.
 */
export interface OperationContext {
  readonly store: Store;
  /** The settings operations read, resolved once at start and frozen. */
  readonly options: OperationSettings;
  /** Public addresses, for URLs printed to users (form endpoints, the schema). */
  readonly urls: { readonly baseUrl: string; readonly formsUrl: string };
  /** Forget cached forms after a change, so the form endpoint sees it at once. */
  readonly forms: Pick<FormDirectory, 'invalidate'>;
  readonly logger: Logger;
  readonly now: () => number;
  /** Seals and opens webhook signing secrets with this server's key (resolved once at start). */
  readonly secrets: SecretBox;
  /** Retry schedule, timeouts and limits of webhook delivery (a test send uses them too). */
  readonly delivery: DeliverySettings;
  /** How notification emails are sent; null when the server has no `--smtp-url`. */
  readonly mail: MailDelivery | null;
  /** Counts invites against `options.invites`, in the server's rate limiter. */
  readonly invites: InviteLimits;
}
