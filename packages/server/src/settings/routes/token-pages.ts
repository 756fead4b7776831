import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '@svc/protocol';
import { isPerson } from '../../auth/principal.js';
import { createToken, listTokenWorkspaces, listTokens, revokeToken } from '../../operations/tokens.js';
import { redirectTo, sendPage } from '../render.js';
import type { SettingsRequestTools } from '../settings-tools.js';
import { TokensPage } from '../views/tokens-page.js';
import { field, type Body } from './route-params.js';

/** `/settings/tokens`: admin sessions create, list and revoke tokens. */
export function tokenPages(app: FastifyInstance, tools: SettingsRequestTools): void {
  const { context } = tools.dependencies;

  const show = async (request: FastifyRequest, reply: FastifyReply, status: number, extra: Partial<Parameters<typeof TokensPage>[0]>) => {
    const principal = tools.session(request).principal;
    const [tokens, workspaces] = await Promise.all([listTokens(context, principal), listTokenWorkspaces(context, principal)]);
    return sendPage(reply, status, TokensPage({ frame: tools.frame(request), tokens, workspaces, ...extra }));
  };

  app.get<{ Querystring: { done?: string } }>('/settings/tokens', (request, reply) => show(request, reply, 200, request.query.done === 'revoked' ? { notice: 'Token revoked. Its sessions and CLI logins stopped working.' } : {}));

  app.post<{ Body: Body }>('/settings/tokens', async (request, reply) => {
    const name = field(request.body, 'name');
    const workspace = field(request.body, 'workspace');
    // A workspace from the list, or Admin ticked: the same rule as `svc tokens create`.
    const admin = field(request.body, 'admin') !== '';
    try {
      const created = await createToken(context, tools.session(request).principal, { ...(name ? { name } : {}), ...(workspace ? { workspace } : {}), admin });
      // Shown in this answer only: the token is not stored in clear anywhere.
      return await show(request, reply, 201, { created: { name: created.token.name, secret: created.secret } });
    } catch (error) {
      if (!(error instanceof ServiceError) || (error.status !== 400 && error.status !== 404 && error.status !== 422)) throw error;
      // A workspace gone since the list was shown is a refused form, not a missing page.
      return show(request, reply, error.status === 404 ? 422 : error.status, { error: `The token was not created: ${error.message}`, values: { name, workspace, admin } });
    }
  });

  app.post<{ Params: { id: string } }>('/settings/tokens/:id/revoke', async (request, reply) => {
    const principal = tools.session(request).principal;
    try {
      await revokeToken(context, principal, request.params);
    } catch (error) {
      if (!(error instanceof ServiceError) || error.code !== 'conflict') throw error;
      return show(request, reply, 409, { error: error.message });
    }
    return redirectTo(reply, !isPerson(principal) && request.params.id === principal.tokenId ? '/login' : '/settings/tokens?done=revoked');
  });
}
