import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { Readable } from 'node:stream';
import { ServiceError } from '@svc/protocol';
import { walkJson } from '../lib/json-walk.js';
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
  return (
    walkJson<string>(root, {
      text: (value, at) => {
        const kind = unstorableKind(value);
        return kind === null ? undefined : `${at.path()} ${unstorableMessage(kind)}`;
      },
      container: (_value, at) => (at.depth >= maxInputDepth ? ` is nested more than ${maxInputDepth} levels deep` : undefined),
      key: (key, at) => {
        const kind = unstorableKind(key);
        return kind === null ? undefined : `${at.path()} has a key with ${kind === 'NUL' ? 'a NUL character' : 'an unpaired surrogate'}`;
      },
    }) ?? null
  );
}
