import type { Readable } from 'node:stream';
import { ServiceError } from '@svc/protocol';
import { addWorkspaceContent } from '../store/queries/contents.js';
import { declaredContentSize, touchDeploy } from '../store/queries/deploys.js';
import type { OperationContext, Principal } from './context.js';
import type { ProjectInput } from './project-config.js';
import { deployInScope } from './scope.js';

/**
 * `PUT …/deploys/:id/files/:sha256`: one file's bytes, exactly as many as the deploy declared
 * for them and hashing to the hash they were announced with (422 otherwise, nothing kept).
 * Once stored, the workspace holds them: its later deploys may use them without uploading.
 */
export async function uploadDeployFile(
  context: OperationContext,
  principal: Principal,
  input: ProjectInput & { id: string; sha256: string; contentLength?: number | undefined },
  content: Readable,
): Promise<{ sha256: string; size: number }> {
  const { row, workspace } = await deployInScope(context.store.db, principal, input);
  if (row.state !== 'uploading') throw new ServiceError('conflict', `deploy ${row.id} is ${row.state === 'failed' ? 'failed' : 'finished'}; start a new one`);
  const declared = await declaredContentSize(context.store.db, row.id, input.sha256);
  if (declared === undefined) throw new ServiceError('not_found', `deploy ${row.id} lists no file with these contents`);
  const wrongSize = (sent: string) => new ServiceError('validation_failed', `the deploy declares ${declared} bytes for these contents; ${sent}`, { errors: { size: `must be ${declared} bytes, as declared` } });
  if (input.contentLength !== undefined && input.contentLength !== declared) throw wrongSize(`the upload is ${input.contentLength}`);
  const staged = await context.store.files.stage(atMost(content, declared, () => wrongSize('more were sent')));
  if (staged.size !== declared) {
    await staged.discard();
    throw wrongSize(`${staged.size} were sent`);
  }
  if (staged.sha256 !== input.sha256) {
    await staged.discard();
    throw new ServiceError('validation_failed', `the bytes sent hash to ${staged.sha256}, not ${input.sha256}`, { errors: { sha256: 'does not match the contents' } });
  }
  await staged.commit();
  const now = context.now();
  await addWorkspaceContent(context.store.db, workspace.id, staged.sha256, now);
  await touchDeploy(context.store.db, row.id, now);
  return { sha256: staged.sha256, size: staged.size };
}

/**
 * The request body's bytes, failing with `tooMany()` once past `max`. Left undestroyed when
 * refused part-way: the answer goes out, then the connection closes (error-replies.ts).
 */
async function* atMost(content: Readable, max: number, tooMany: () => Error): AsyncGenerator<Uint8Array> {
  let received = 0;
  for await (const chunk of content.iterator({ destroyOnReturn: false }) as AsyncIterable<Uint8Array>) {
    received += chunk.byteLength;
    if (received > max) throw tooMany();
    yield chunk;
  }
}
