import { randomBytes } from 'node:crypto';
import type { OperationContext, Principal } from '../../packages/server/src/operations/context.js';
import { createOperationContext } from '../../packages/server/src/operations/create-context.js';
import { serverOptions, type ServerOptions } from '../../packages/server/src/server-options.js';
import type { Store } from '../../packages/server/src/store/store.js';

/** A fresh SVC_ENCRYPTION_KEY: pass it to the server (env) and to the operations (options). */
export function newEncryptionKey(): string {
  return randomBytes(32).toString('base64');
}

export const adminPrincipal: Principal = { tokenId: 'tok_test', workspaceId: null };

/** The context operations get inside the server, built in the test process over the test's store. */
export function operationContext(store: Store, options: Partial<ServerOptions> & { encryptionKey: Uint8Array }): OperationContext {
  return createOperationContext({ store, options: serverOptions(options) });
}
