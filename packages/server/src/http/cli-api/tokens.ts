import { CreateTokenRequest, CreateTokenResponse, ListTokensResponse, RevokeTokenResponse, SignInLinkResponse, TokenParams, WhoamiResponse } from '@svc/protocol/api';
import { createSignInLink } from '../../operations/sign-in-links.js';
import { createToken, listTokens, revokeToken, whoami } from '../../operations/tokens.js';
import { ok, principalOf, type CliRoutes } from './cli-api-instance.js';

/** The token itself (`svc login`) and token management (`svc tokens …`, admin only). */
export const tokenRoutes: CliRoutes = (app, context) => {
  app.get('/token', { schema: { response: { 200: WhoamiResponse } } }, async (request) => ok({ token: await whoami(context, principalOf(request)) }));

  app.get('/tokens', { schema: { response: { 200: ListTokensResponse } } }, async (request) => ok({ tokens: await listTokens(context, principalOf(request)) }));

  app.post('/tokens', { schema: { body: CreateTokenRequest, response: { 200: CreateTokenResponse } } }, async (request) => ok(await createToken(context, principalOf(request), request.body)));

  app.post('/tokens/:id/revoke', { schema: { params: TokenParams, response: { 200: RevokeTokenResponse } } }, async (request) =>
    ok({ token: await revokeToken(context, principalOf(request), { id: request.params.id }) }),
  );

  app.post('/sign-in-links', { schema: { response: { 200: SignInLinkResponse } } }, async (request) =>
    ok({ url: (await createSignInLink(context, principalOf(request))).url }),
  );
};
