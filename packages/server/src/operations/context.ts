import type { Logger } from 'pino';
import type { MailDelivery } from '../delivery/attempt-delivery.js';
import type { DeliverySettings } from '../delivery/delivery-settings.js';
import type { FormDirectory } from '../forms/form-directory.js';
import type { ServerOptions } from '../server-options.js';
import type { Store } from '../store/store.js';
import type { SecretBox } from '../webhooks/secret-box.js';

// Who is acting is decided by auth/ (a token or a signed-in person); operations take it with every call.
export { isAdmin, isPerson, membershipIn, type MemberRole, type Membership, type PersonPrincipal, type Principal, type TokenPrincipal } from '../auth/principal.js';

/**
 * What every operation may use. Operations are plain functions of (context, principal,
 * input) that return data or throw a ServiceError; the CLI API, the CLI (through it) and the
 * settings pages all call the same functions.
 */
export interface OperationContext {
  readonly store: Store;
  readonly options: ServerOptions;
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
}
