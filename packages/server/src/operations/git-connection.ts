import { randomBytes } from 'node:crypto';
import { ServiceError } from '@svc/protocol';
import type { CreateHookResponse, EnvironmentName, HookInfo } from '@svc/protocol/api';
import { hashToken } from '../auth/token-secrets.js';
import { generatePushSecret, pushSecretContext, repoTokenContext } from '../builds/git-secrets.js';
import { checkRepoAddress, normalizeRepoUrl, type RepoUrlPolicy } from '../builds/repo-url.js';
import { newId } from '../lib/ids.js';
import { deleteDeployHook, insertDeployHook, listDeployHooks, upsertGitConnection } from '../store/queries/git-connections.js';
import { recordAudit } from './audit-log.js';
import { branchOfEnvironment } from './builds.js';
import type { OperationContext, Principal } from './context.js';
import { isoTime, isoTimeOrNull } from '../lib/iso-time.js';
import type { ProjectInput } from './project-config.js';
import { projectInScope } from './scope.js';


export function repoUrlPolicy(context: OperationContext): RepoUrlPolicy {
  return { allowLocalRepos: context.options.builds.allowLocalRepos, allowPrivateTargets: context.options.allowPrivateTargets };
}

/**
 * `svc git connect`: the project's repository (docs/hosting.md, "Deploys from git"). Its
 * push webhook's address and a new secret are answered this once; connecting again
 * rotates the secret (the old one stops working at once).
 */
export async function connectGit(
  context: OperationContext,
  principal: Principal,
  input: ProjectInput & { repo: string; token?: string | undefined },
): Promise<{ git: { repo: string; pushUrl: string; pushSecret: string } }> {
  const { workspace, project } = await projectInScope(context.store.db, principal, input.workspace, input.project);
  const policy = repoUrlPolicy(context);
  const repo = normalizeRepoUrl(input.repo, policy);
  const unreachable = await checkRepoAddress(repo, policy);
  if (unreachable !== null) throw new ServiceError('validation_failed', `the repository cannot be reached: ${unreachable}`, { errors: { repo: unreachable } });
  const now = context.now();
  const id = newId('git', now);
  const pushSecret = generatePushSecret();
  await context.store.transaction(async (trx) => {
    await upsertGitConnection(trx, {
      project_id: project.id,
      id,
      repo_url: repo,
      token_sealed: input.token === undefined ? null : context.secrets.seal(input.token, repoTokenContext(project.id)),
      push_secret_sealed: context.secrets.seal(pushSecret, pushSecretContext(project.id)),
      created_at: now,
      updated_at: now,
    });
    await recordAudit(trx, context, principal, { action: 'git.connected', workspaceId: workspace.id, projectId: project.id, object: { type: 'project', id: project.name } });
  });
  return { git: { repo, pushUrl: `${context.urls.baseUrl}/api/git/${id}`, pushSecret } };
}

/** The SHA-256 a deploy hook's secret is looked up by, made as a token's is. */
export const hookSecretHash = (secret: string): string => hashToken(secret);

/** `svc hooks create`: a deploy hook of one environment; its URL (160 random bits) is answered this once. */
export async function createDeployHook(
  context: OperationContext,
  principal: Principal,
  input: ProjectInput & { environment: EnvironmentName; name?: string | undefined },
): Promise<Pick<CreateHookResponse, 'hook'>> {
  const { workspace, project } = await projectInScope(context.store.db, principal, input.workspace, input.project);
  if (branchOfEnvironment(project, input.environment) === null) {
    const names = Object.keys(JSON.parse(project.environments) as Record<string, unknown>);
    throw new ServiceError('validation_failed', `the project has no ${input.environment} environment (service.json's environments: ${names.join(', ')})`, { errors: { environment: 'is not one of the project\'s environments' } });
  }
  const now = context.now();
  const id = newId('hook', now);
  const secret = randomBytes(20).toString('base64url');
  const name = input.name ?? `${input.environment} hook`;
  await context.store.transaction(async (trx) => {
    await insertDeployHook(trx, { id, project_id: project.id, name, environment: input.environment, secret_hash: hookSecretHash(secret), created_at: now, last_used_at: null });
    await recordAudit(trx, context, principal, { action: 'hook.created', workspaceId: workspace.id, projectId: project.id, object: { type: 'hook', id } });
  });
  return { hook: { id, name, environment: input.environment, url: `${context.urls.baseUrl}/api/hooks/${secret}` } };
}

/** `svc hooks list`: never the URLs. */
export async function listProjectHooks(context: OperationContext, principal: Principal, input: ProjectInput): Promise<{ hooks: HookInfo[] }> {
  const { project } = await projectInScope(context.store.db, principal, input.workspace, input.project);
  const rows = await listDeployHooks(context.store.db, project.id);
  return {
    hooks: rows.map((row) => ({ id: row.id, name: row.name, environment: row.environment as EnvironmentName, createdAt: isoTime(row.created_at), lastUsedAt: isoTimeOrNull(row.last_used_at) })),
  };
}

/** `svc hooks remove ID`: its URL stops working at once. */
export async function removeDeployHook(context: OperationContext, principal: Principal, input: ProjectInput & { id: string }): Promise<{ removed: boolean }> {
  const { workspace, project } = await projectInScope(context.store.db, principal, input.workspace, input.project);
  await context.store.transaction(async (trx) => {
    if (!(await deleteDeployHook(trx, project.id, input.id))) throw new ServiceError('not_found', `no deploy hook "${input.id}" in project "${input.project}"`);
    await recordAudit(trx, context, principal, { action: 'hook.removed', workspaceId: workspace.id, projectId: project.id, object: { type: 'hook', id: input.id } });
  });
  return { removed: true };
}
