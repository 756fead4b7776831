import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '@svc/protocol';
import type { FailedAuthentications } from '../auth/failed-authentications.js';
import type { OperationContext } from '../operations/context.js';
import { receiveDeployHook, receivePush, type InboundAnswer } from '../operations/inbound-git.js';
import { authFailuresName } from '../auth/failed-authentications.js';
import { rateLimitHeaders } from '../ratelimit/headers.js';

/** GitHub sends push payloads of up to 25 MB; a push that large names far more than a deploy needs. */
const pushBodyLimit = 25 * 1024 * 1024;

/**
 * The inbound webhooks (docs/hosting.md, "Deploys from git"): `POST /api/git/{id}` (push
 * webhooks, verified over the raw body) and `POST /api/hooks/{secret}` (deploy hooks). A
 * wrong signature or an unknown hook is a failed authentication: counted per client
 * address, and past the limit refused before anything is looked up.
 */
export function gitRoutes(app: FastifyInstance, services: { context: OperationContext; failures: FailedAuthentications }): void {
  const { context, failures } = services;
  // The raw bytes, whatever the content type: signatures are over exactly what was sent.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: pushBodyLimit }, (_request, body, done) => done(null, body));

  const guarded = async (request: FastifyRequest, reply: FastifyReply, receive: () => Promise<InboundAnswer>): Promise<FastifyReply> => {
    const allowed = await failures.check(request.clientAddress);
    if (!allowed.allowed) {
      void reply.headers(rateLimitHeaders(allowed, authFailuresName));
      throw failures.refusal(allowed);
    }
    try {
      const answer = await receive();
      return reply.code(answer.status).header('cache-control', 'no-store').send(answer.body);
    } catch (error) {
      if (error instanceof ServiceError && (error.code === 'invalid_signature' || error.code === 'not_found')) await failures.record(request.clientAddress);
      throw error;
    }
  };

  app.post('/api/git/:id', { bodyLimit: pushBodyLimit }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    return guarded(request, reply, () => receivePush(context, { id, headers: request.headers, body }));
  });

  app.post('/api/hooks/:secret', { bodyLimit: pushBodyLimit }, async (request, reply) => {
    const { secret } = request.params as { secret: string };
    return guarded(request, reply, () => receiveDeployHook(context, secret));
  });
}
