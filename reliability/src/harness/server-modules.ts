import type * as ServerIndex from '../../../packages/server/dist/index.js';
import type * as Ids from '../../../packages/server/dist/ids.js';
import type * as FormQueries from '../../../packages/server/dist/store/queries/forms.js';
import type * as ProjectQueries from '../../../packages/server/dist/store/queries/projects.js';
import type * as WebhookOperations from '../../../packages/server/dist/operations/webhooks.js';
import { serverDistUrl } from './repo.js';

/**
 * The built server's modules that the harness drives directly: the store (fixtures and
 * checks) and the webhook operations. They are loaded at run time from
 * `packages/server/dist` (what `svc serve` runs), so this code works the same from its
 * TypeScript sources under Vitest and compiled under `reliability/dist` or `bench/dist`;
 * only their types are imported statically.
 */
export interface ServerModules {
  readonly server: typeof ServerIndex;
  readonly ids: typeof Ids;
  readonly forms: typeof FormQueries;
  readonly projects: typeof ProjectQueries;
  readonly webhooks: typeof WebhookOperations;
}

let loading: Promise<ServerModules> | null = null;

export function serverModules(): Promise<ServerModules> {
  loading ??= (async () => ({
    server: (await import(serverDistUrl('index.js'))) as typeof ServerIndex,
    ids: (await import(serverDistUrl('ids.js'))) as typeof Ids,
    forms: (await import(serverDistUrl('store/queries/forms.js'))) as typeof FormQueries,
    projects: (await import(serverDistUrl('store/queries/projects.js'))) as typeof ProjectQueries,
    webhooks: (await import(serverDistUrl('operations/webhooks.js'))) as typeof WebhookOperations,
  }))();
  return loading;
}

export type Store = ServerIndex.Store;
