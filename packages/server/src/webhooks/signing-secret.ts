import { randomBytes } from 'node:crypto';
import type { SecretBox } from '../secrets/secret-box.js';

export const signingSecretPrefix = 'whsec_';
/** 256 random bits (docs/webhooks.md). */
const secretBytes = 32;

/** `whsec_` and 256 random bits in base64url: no characters a shell or a .env file mangles. */
export function generateSigningSecret(): string {
  return `${signingSecretPrefix}${randomBytes(secretBytes).toString('base64url')}`;
}

/** The additional authenticated data a webhook's secrets are sealed with. */
export function signingSecretContext(webhookId: string): string {
  return `webhook-secret:${webhookId}`;
}

export interface SealedSigningSecrets {
  readonly webhookId: string;
  readonly sealedSecret: string;
  readonly sealedPreviousSecret: string | null;
  readonly previousSecretExpiresAt: number | null;
}

/**
 * The secrets that sign a delivery now, each giving its own `v1=`: the previous secret while
 * its grace period lasts, then the current one.
 */
export function activeSigningSecrets(sealed: SealedSigningSecrets, box: SecretBox, now: number): string[] {
  const context = signingSecretContext(sealed.webhookId);
  const secrets: string[] = [];
  if (sealed.sealedPreviousSecret !== null && sealed.previousSecretExpiresAt !== null && sealed.previousSecretExpiresAt > now) {
    secrets.push(box.open(sealed.sealedPreviousSecret, context));
  }
  secrets.push(box.open(sealed.sealedSecret, context));
  return secrets;
}
