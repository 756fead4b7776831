import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import { ServiceError } from '@svc/protocol';
import type { Principal } from '../../auth/principal.js';
import type { OperationContext } from '../../operations/context.js';

/** The Fastify scope of the CLI API: TypeBox schemas type every route's request and answer. */
export type CliApiInstance = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/** What a resource file's routes are registered with. */
export type CliRoutes = (app: CliApiInstance, context: OperationContext) => void;

declare module 'fastify' {
  interface FastifyRequest {
    /** The token that sent a CLI API request, once authenticated. */
    principal: Principal | null;
  }
}

/** The authenticated principal; every CLI API route runs after authentication. */
export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new ServiceError('unauthorized', 'the request was not authenticated');
  return request.principal;
}
