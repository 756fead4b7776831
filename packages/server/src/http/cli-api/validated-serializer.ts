import type { FastifySerializerCompiler } from 'fastify';
import { checkerFor, type TSchema } from '@svc/protocol/api';

/**
 * Answers are checked against their route's response schema before they are sent (the
 * same TypeBox schemas the CLI checks them with), then written with JSON.stringify. An
 * answer that does not match is a bug: it fails as a 500 rather than reach a client.
 */
export const validatedSerializer: FastifySerializerCompiler<TSchema> = ({ schema }) => {
  const checker = checkerFor(schema);
  return (data: unknown) => {
    const problem = checker.firstError(data);
    if (problem !== null) throw new Error(`a CLI API answer does not match its schema: ${problem}`);
    return JSON.stringify(data);
  };
};
