import { generatePushSecret, pushSecretContext } from '../builds/git-secrets.js';
import type { SecretBox } from '../secrets/secret-box.js';
import { generateSigningSecret, signingSecretContext } from '../webhooks/signing-secret.js';
import { sealedKeyId } from './backup-key.js';

/** Something a restore with --different-key could not keep, and what to do about it. */
export interface SetAgain {
  /** `webhook`, `git`, `captcha`, `email`. */
  readonly kind: string;
  /** The row's id (a webhook's, a project's, a form's). */
  readonly id: string;
  readonly action: string;
}

type Row = Record<string, unknown>;

/**
 * `svc restore --different-key` (docs/server.md, "Backups and moving"): the archive's sealed
 * secrets (secrets/secret-box.ts) cannot be opened with the target's key, so none is kept.
 * What the server must be able to open to start (webhook signing secrets, push secrets) is
 * replaced by a new value sealed with the target's key; what a person gave (repository
 * tokens, captcha secret keys) is removed; the encryption canary is left for the first start
 * to write. Each is listed with what must be set again. A sealed value anywhere else is a
 * column this code does not know: the restore stops rather than keep what nobody can open.
 */
export class Rekeying {
  readonly setAgain: SetAgain[] = [];
  private readonly projects = new Map<string, string>();

  constructor(
    private readonly archiveKeyId: string,
    private readonly box: SecretBox,
  ) {}

  /** The row to write instead of `row` (changed in place), or null to leave it out. */
  apply(table: string, row: Row): Row | null {
    switch (table) {
      case 'encryption_canary':
        return null;
      case 'mail_outbox':
        // A queued email holds a sign-in link sealed with the other key: it is not sent; the person asks again.
        if (this.sealedHere(row['message_sealed'])) {
          row['message_sealed'] = null;
          if (row['status'] === 'pending') {
            row['status'] = 'failed';
            row['last_error'] = 'restored under another key before it was sent';
            this.setAgain.push({ kind: 'email', id: String(row['id']), action: `an email with a link to ${String(row['recipient'])} was not sent: invite them again, or they ask for a sign-in link again` });
          }
        }
        break;
      case 'projects':
        this.projects.set(String(row['id']), String(row['name']));
        break;
      case 'webhooks':
        if (this.sealedHere(row['secret'])) {
          row['secret'] = this.box.seal(generateSigningSecret(), signingSecretContext(String(row['id'])));
          row['previous_secret'] = null;
          row['previous_secret_expires_at'] = null;
          // A form's notification emails are signed by nobody a person sees: nothing to do.
          if (row['kind'] !== 'email') {
            this.setAgain.push({ kind: 'webhook', id: String(row['id']), action: `give ${String(row['url'])} a new signing secret: svc webhooks rotate-secret ${String(row['id'])}` });
          }
        }
        break;
      case 'git_connections': {
        const project = String(row['project_id']);
        if (this.sealedHere(row['push_secret_sealed']) || this.sealedHere(row['token_sealed'])) {
          row['push_secret_sealed'] = this.box.seal(generatePushSecret(), pushSecretContext(project));
          if (this.sealedHere(row['token_sealed'])) row['token_sealed'] = null;
          this.setAgain.push({ kind: 'git', id: project, action: `connect the repository of project ${this.projects.get(project) ?? project} again (svc git connect --repo URL [--token T]) and give the git host its new push secret` });
        }
        break;
      }
      case 'forms':
        if (this.sealedHere(row['captcha_secret'])) {
          row['captcha_secret'] = null;
          this.setAgain.push({ kind: 'captcha', id: String(row['id']), action: `set the captcha secret key of form ${String(row['slug'])} again (svc forms set ${String(row['slug'])} --captcha-secret-env VAR); until then its posts go to Spam` });
        }
        break;
    }
    for (const [column, value] of Object.entries(row)) {
      if (this.sealedHere(value)) throw new Error(`${table}.${column} holds a sealed value this svc cannot set again under another key`);
    }
    return row;
  }

  private sealedHere(value: unknown): boolean {
    return typeof value === 'string' && sealedKeyId(value) === this.archiveKeyId;
  }
}
