import type { FailedAuthentications } from '../../auth/failed-authentications.js';
import { TypeBoxValidatorCompiler, type TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyError, FastifyInstance } from 'fastify';
import { cliApiPrefix, ServiceError } from '@svc/protocol';
import { LastUsedRecorder } from '../../auth/last-used.js';
import { TokenAuthenticator } from '../../auth/token-authenticator.js';
import type { OperationContext } from '../../operations/context.js';
import type { RateLimitPolicy } from '../../ratelimit/policy.js';
import type { RateLimiter } from '../../ratelimit/rate-limiter.js';
import type { RoutePlugin } from '../app.js';
import { sendError } from '../error-replies.js';
import { refuseUnstorableInput } from '../storable-input.js';
import type { CliApiInstance, CliRoutes } from './cli-api-instance.js';
import { auditLogRoutes } from './audit-log.js';
import { formRoutes } from './forms.js';
import { memberRoutes } from './members.js';
import { projectRoutes } from './projects.js';
import { requestGuard } from './request-guard.js';
import { requestRoutes } from './requests.js';
import { submissionRoutes } from './submissions.js';
import { tokenRoutes } from './tokens.js';
import { deliveryRoutes } from './deliveries.js';
import { deployRoutes } from './deploys.js';
import { buildRoutes } from './builds.js';
import { webhookRoutes } from './webhooks.js';
import { validatedSerializer } from './validated-serializer.js';

export interface CliApiDependencies {
  readonly context: OperationContext;
  readonly rateLimiter: RateLimiter;
  /** Requests per window per token (`svc serve --cli-rate-limit`, 600 a minute by default). */
  readonly policy: RateLimitPolicy;
  readonly failures: FailedAuthentications;
}

export interface CliApi {
  /** Registers the API under `/api/cli` (through buildApp's `plugins`). */
  readonly plugin: RoutePlugin;
  /** Writes the last-used times still pending; call after the HTTP server has closed. */
  close(): Promise<void>;
}

/** One file per resource; each registers its routes relative to `/api/cli`. */
const resources: readonly CliRoutes[] = [tokenRoutes, memberRoutes, projectRoutes, formRoutes, submissionRoutes, webhookRoutes, deliveryRoutes, requestRoutes, deployRoutes, buildRoutes, auditLogRoutes];

/**
 * The private CLI API (docs/cli-api.md): bearer tokens, a per-token rate limit, requests
 * and answers validated with the TypeBox schemas of @svc/protocol, and failures as
 * `{"ok":false,"error":"<code>","message":"…"}` with the registry's status codes.
 */
export function createCliApi(dependencies: CliApiDependencies): CliApi {
  const { context } = dependencies;
  const lastUsed = new LastUsedRecorder(context.store.db, (error) => context.logger.warn({ err: error }, 'could not record when a token was last used'));
  const authenticator = new TokenAuthenticator(context.store.db, lastUsed, context.now);

  const plugin: RoutePlugin = async (app: FastifyInstance) => {
    await app.register(
      (scope, _options, done) => {
        const api: CliApiInstance = scope.withTypeProvider<TypeBoxTypeProvider>();
        api.setValidatorCompiler(TypeBoxValidatorCompiler);
        api.setSerializerCompiler(validatedSerializer);
        api.decorateRequest('principal', null);
        api.setErrorHandler((error, request, reply) => sendError(request, reply, describeFailure(error), true));
        api.setNotFoundHandler((request, reply) =>
          sendError(request, reply, new ServiceError('not_found', `no CLI API route ${request.method} ${request.url.split('?')[0] ?? ''}`), true),
        );
        api.addHook('onRequest', requestGuard(authenticator, dependencies.rateLimiter, dependencies.policy, dependencies.failures));
        api.addHook('preValidation', refuseUnstorableInput);
        for (const routes of resources) routes(api, context);
        done();
      },
      { prefix: cliApiPrefix },
    );
  };
  return { plugin, close: () => lastUsed.flush() };
}

/** Schema failures keep the validator's words (`body/name must …`) as their message. */
function describeFailure(error: unknown): unknown {
  const fastifyError = error as Partial<FastifyError> | null;
  if (fastifyError?.code === 'FST_ERR_VALIDATION') {
    return new ServiceError('invalid_body', fastifyError.message, undefined, { cause: error });
  }
  return error;
}
