import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { Readable } from 'node:stream';
import { ServiceError } from '@svc/protocol';
import { unstorableKind, unstorableMessage } from '../lib/storable-text.js';

/** Deeper input is refused before validation: nothing we accept nests this far, and deep recursion would exhaust the stack. */
export const maxInputDepth = 64;

/**
 * Refuses with 400 `invalid_body`, before any schema or database sees it, input nested
 * deeper than `maxInputDepth` and strings or keys a store cannot hold (lib/storable-text.ts:
 * NUL, unpaired surrogates). A `preValidation` hook for authenticated input (CLI API,
 * settings forms); as an `onRequest` hook, where no body is read yet, it checks the path
 * parameters and the query of the public endpoints before anything looks them up.
 */
export function refuseUnstorableInput(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  for (const [where, value] of [['body', request.body], ['query', request.query], ['params', request.params]] as const) {
    // A streamed body (a deploy's file) is bytes, not input stored as text.
    if (value instanceof Readable) continue;
    const problem = findProblem(value);
    if (problem !== null) return done(new ServiceError('invalid_body', `${where}${problem}`));
  }
  done();
}

function findProblem(root: unknown): string | null {
  const stack: [unknown, string, number][] = [[root, '', 0]];
  while (stack.length > 0) {
    const [value, path, depth] = stack.pop()!;
    if (typeof value === 'string') {
      const kind = unstorableKind(value);
      if (kind !== null) return `${path} ${unstorableMessage(kind)}`;
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= maxInputDepth) return ` is nested more than ${maxInputDepth} levels deep`;
    for (const [key, child] of Object.entries(value)) {
      const kind = unstorableKind(key);
      if (kind !== null) return `${path} has a key with ${kind === 'NUL' ? 'a NUL character' : 'an unpaired surrogate'}`;
      stack.push([child, `${path}/${key.slice(0, 100)}`, depth + 1]);
    }
  }
  return null;
}
