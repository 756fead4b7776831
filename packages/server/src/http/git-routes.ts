import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '@svc/protocol';
import type { FailedAuthentications } from '../auth/failed-authentications.js';
import { authFailuresName, failureOf } from '../auth/failed-authentications.js';
import type { OperationContext } from '../operations/context.js';
import { receiveDeployHook, receivePush, type InboundAnswer, type PushServices } from '../operations/inbound-git.js';
import { rateLimitHeaders } from '../ratelimit/headers.js';
import { closeIfBodyUnread } from './error-replies.js';

/**
 * The inbound webhooks (docs/hosting.md, "Deploys from git"): `POST /api/git/{id}` (push
 * webhooks) and `POST /api/hooks/{secret}` (deploy hooks). Neither route lets Fastify read a
 * body: a push's body is handed to the operation as the stream it is, read only once the
 * checks that need none have passed; a deploy hook's is never read at all.
 */
export function gitRoutes(app: FastifyInstance, services: { context: OperationContext; failures: FailedAuthentications; push: Omit<PushServices, 'failures'> }): void {
  const { context, failures } = services;
  const push: PushServices = { ...services.push, failures };
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));

  const answer = (request: FastifyRequest, reply: FastifyReply, inbound: InboundAnswer): FastifyReply => {
    closeIfBodyUnread(request, reply);
    return reply.code(inbound.status).header('cache-control', 'no-store').send(inbound.body);
  };

  app.post('/api/git/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > push.spool.limitBytes) throw new ServiceError('payload_too_large', `a push webhook's body is at most ${push.spool.limitBytes} bytes`);
    const body = (request.body as Readable | undefined) ?? emptyBody();
    return answer(request, reply, await receivePush(context, push, { id, headers: request.headers, address: request.clientAddress, body }));
  });

  // A deploy hook's secret is its URL: a wrong one is a failed authentication of the address.
  app.post('/api/hooks/:secret', async (request, reply) => {
    const { secret } = request.params as { secret: string };
    const received = await failures.attempt(request.clientAddress, () => receiveDeployHook(context, secret), {
      counts: failureOf('not_found'),
      refused: (decision) => void reply.headers(rateLimitHeaders(decision, authFailuresName)),
    });
    return answer(request, reply, received);
  });
}

async function* emptyBody(): AsyncGenerator<Uint8Array> {}
