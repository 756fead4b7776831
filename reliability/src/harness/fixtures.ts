import { randomBytes } from 'node:crypto';
import { serverModules, type Store } from './server-modules.js';

export interface FormFixture {
  readonly workspace: string;
  readonly project: string;
  readonly projectId: string;
  readonly formId: string;
  readonly endpointId: string;
}

/** Creates a form (and its workspace and project when new) through the store's queries. */
export async function createForm(
  store: Store,
  options: { workspace?: string; project?: string; slug?: string; rateLimit?: { max: number; windowSeconds: number } | null } = {},
): Promise<FormFixture> {
  const { ids, forms, projects } = await serverModules();
  const workspace = options.workspace ?? `rel-${randomBytes(3).toString('hex')}`;
  const project = options.project ?? 'site';
  return store.transaction(async (trx) => {
    const ws = await projects.ensureWorkspace(trx, workspace);
    const existing = await projects.findProject(trx, ws.id, project);
    const projectRow =
      existing ??
      (await projects.insertProject(trx, { workspaceId: ws.id, name: project, framework: 'static', environments: { production: { branch: 'main' } }, pinpoints: {}, auto: {} }));
    const form = await forms.insertForm(trx, {
      projectId: projectRow.id,
      slug: options.slug ?? `form-${randomBytes(3).toString('hex')}`,
      name: null,
      endpointId: ids.newEndpointId(),
      rateLimit: options.rateLimit ?? null,
    });
    return { workspace, project, projectId: projectRow.id, formId: form.id, endpointId: form.endpoint_id };
  });
}

/** A fresh SVC_ENCRYPTION_KEY (base64 of 32 bytes); give the same one to the server. */
export function newEncryptionKey(): string {
  return randomBytes(32).toString('base64');
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

/**
 * Creates a webhook through the operations layer (the code the CLI API runs), as an admin,
 * against the same store the server uses.
 */
export async function createWebhook(store: Store, form: FormFixture, options: WebhookOptions): Promise<{ id: string; secret: string }> {
  const { server, webhooks } = await serverModules();
  const context = server.createOperationContext({
    store,
    options: server.serverOptions({ dataDir: options.dataDir, encryptionKey: server.parseEncryptionKey(options.encryptionKey), allowPrivateTargets: options.allowPrivateTargets }),
  });
  const created = await webhooks.createWebhook(context, { tokenId: 'tok_reliability', workspaceId: null }, {
    workspace: form.workspace,
    project: form.project,
    url: options.url,
    events: [...(options.events ?? ['*'])],
  });
  return { id: created.webhook.id, secret: created.secret };
}
