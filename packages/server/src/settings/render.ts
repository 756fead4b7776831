import type { FastifyReply } from 'fastify';
import type { VNode } from 'preact';
import { render } from 'preact-render-to-string';
import { setPageHeaders } from './security.js';

/**
 * Pages are Preact components rendered to a string on the server: JSX is typed and every
 * value is escaped unless a component opts out (none does). No page ships a client bundle.
 */
export function sendPage(reply: FastifyReply, status: number, page: VNode): FastifyReply {
  setPageHeaders(reply);
  return reply.code(status).type('text/html; charset=utf-8').send(`<!doctype html>${render(page)}`);
}

/** Post/Redirect/Get: every successful form post answers 303 to the page to show next. */
export function redirectTo(reply: FastifyReply, location: string): FastifyReply {
  setPageHeaders(reply);
  return reply.code(303).header('location', location).send();
}
