import { randomBytes } from 'node:crypto';

/** The additional authenticated data a project's push secret is sealed with (secrets/secret-box.ts). */
export const pushSecretContext = (projectId: string): string => `git-push-secret:${projectId}`;
/** The additional authenticated data a project's repository token is sealed with. */
export const repoTokenContext = (projectId: string): string => `git-repo-token:${projectId}`;

/** A new push secret: `ghsec_` and 256 random bits (docs/hosting.md, "Deploys from git"). */
export function generatePushSecret(): string {
  return `ghsec_${randomBytes(32).toString('base64url')}`;
}
