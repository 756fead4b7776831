import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { Readable } from 'node:stream';
import { ServiceError } from '@svc/protocol';

/** Deeper input is refused before validation: nothing we accept nests this far, and deep recursion would exhaust the stack. */
export const maxInputDepth = 64;

/**
 * A `preValidation` hook for authenticated input (CLI API, settings forms): refuses with
 * 400 `invalid_body`, before any schema or database sees it, input nested deeper than
 * `maxInputDepth` and strings or keys holding NUL, which PostgreSQL's text cannot store.
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
      if (value.includes('\u0000')) return `${path} must not contain NUL characters`;
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= maxInputDepth) return ` is nested more than ${maxInputDepth} levels deep`;
    for (const [key, child] of Object.entries(value)) {
      if (key.includes('\u0000')) return `${path} has a key with a NUL character`;
      stack.push([child, `${path}/${key.slice(0, 100)}`, depth + 1]);
    }
  }
  return null;
}

