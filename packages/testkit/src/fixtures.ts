import { randomBytes } from 'node:crypto';
import {
  createOperationContext,
  createWebhook as createWebhookOperation,
  ensureWorkspace,
  findProject,
  generateToken,
  hashToken,
  insertForm,
  insertProject,
  insertToken,
  newEndpointId,
  replaceProjectDomains,
  parseEncryptionKey,
  serverOptions,
  type OperationContext,
  type Principal,
  type ServerOptions,
  type Store,
} from '@svc/server/testing';

export interface FormFixture {
  readonly workspace: string;
  readonly project: string;
  readonly projectId: string;
  readonly formId: string;
  readonly endpointId: string;
  readonly slug: string;
}

/** Creates (through the store) a form in a project, making the workspace and project if needed. */
export async function createForm(
  store: Store,
  options: { workspace?: string; project?: string; slug?: string; name?: string; rateLimit?: { max: number; windowSeconds: number } | null } = {},
): Promise<FormFixture> {
  const workspace = options.workspace ?? `ws-${randomBytes(3).toString('hex')}`;
  const project = options.project ?? 'site';
  const slug = options.slug ?? `form-${randomBytes(3).toString('hex')}`;
  return store.transaction(async (trx) => {
    const ws = await ensureWorkspace(trx, workspace);
    const existing = await findProject(trx, ws.id, project);
    const projectRow =
      existing ??
      (await insertProject(trx, {
        workspaceId: ws.id,
        name: project,
        framework: 'static',
        environments: { production: { branch: 'main' } },
        pinpoints: {},
        auto: {},
      }));
    const form = await insertForm(trx, {
      projectId: projectRow.id,
      slug,
      name: options.name ?? null,
      endpointId: newEndpointId(),
      rateLimit: options.rateLimit ?? null,
    });
    return { workspace, project, projectId: projectRow.id, formId: form.id, endpointId: form.endpoint_id, slug };
  });
}

export interface WidgetProjectFixture {
  readonly workspace: string;
  readonly project: string;
  readonly projectId: string;
  /** The project's Pinpoints widget key (`pk_…`). */
  readonly key: string;
}

/** Creates (through the store) a project with Pinpoints settings and domains per environment. */
export async function createWidgetProject(
  store: Store,
  options: { pinpoints?: Record<string, unknown>; domains?: Partial<Record<'production' | 'staging' | 'development', string[]>> } = {},
): Promise<WidgetProjectFixture> {
  const workspace = `ws-${randomBytes(3).toString('hex')}`;
  return store.transaction(async (trx) => {
    const ws = await ensureWorkspace(trx, workspace);
    const row = await insertProject(trx, {
      workspaceId: ws.id,
      name: 'site',
      framework: 'static',
      environments: { production: { branch: 'main' }, staging: { branch: 'dev' } },
      pinpoints: options.pinpoints ?? {},
      auto: {},
    });
    const entries = Object.entries(options.domains ?? {}).flatMap(([environment, hostnames]) => hostnames.map((hostname, position) => ({ hostname, environment, position })));
    if (entries.length > 0) await replaceProjectDomains(trx, row.id, entries);
    return { workspace, project: 'site', projectId: row.id, key: row.widget_key! };
  });
}

/** A fresh SVC_ENCRYPTION_KEY: pass it to the server (env) and to the operations (options). */
export function newEncryptionKey(): string {
  return randomBytes(32).toString('base64');
}

/**
 * A new token made directly in the store (no request counted against another token), for
 * tests that need many: an admin token unless a workspace id is given. Returns its secret.
 */
export async function createToken(store: Store, name: string, workspaceId: string | null = null): Promise<string> {
  const token = generateToken();
  await insertToken(store.db, { name, tokenHash: hashToken(token), workspaceId });
  return token;
}

/** An admin principal for operations run by a test. */
export const adminPrincipal: Principal = { tokenId: 'tok_test', workspaceId: null };

/** The context operations get inside the server, built here over the caller's store. */
export function operationContext(store: Store, options: Partial<ServerOptions> & { encryptionKey: Uint8Array }): OperationContext {
  return createOperationContext({ store, options: serverOptions(options) });
}

export interface WebhookOptions {
  readonly url: string;
  readonly events?: readonly string[];
  /** The server's SVC_ENCRYPTION_KEY. */
  readonly encryptionKey: string;
  readonly dataDir: string;
  /** As `--allow-private-targets`: when false, private IP literals are refused here already. */
  readonly allowPrivateTargets: boolean;
}

/** Creates a webhook through the operations layer (the code the CLI API runs), as an admin, on the server's store. */
export async function createWebhook(store: Store, form: Pick<FormFixture, 'workspace' | 'project'>, options: WebhookOptions): Promise<{ id: string; secret: string }> {
  const context = operationContext(store, { dataDir: options.dataDir, encryptionKey: parseEncryptionKey(options.encryptionKey), allowPrivateTargets: options.allowPrivateTargets });
  const created = await createWebhookOperation(context, adminPrincipal, { workspace: form.workspace, project: form.project, url: options.url, events: [...(options.events ?? ['*'])] });
  return { id: created.webhook.id, secret: created.secret };
}
