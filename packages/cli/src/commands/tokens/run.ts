import { cliPaths, ServiceError } from '@svc/protocol';
import { CreateTokenResponse, ListTokensResponse, RevokeTokenResponse } from '@svc/protocol/api';
import type { ContextOf } from '../../command.js';
import { requireArgument } from '../../require-argument.js';
import { callServer } from '../../server-call.js';
import type { tokensCreate, tokensList, tokensRevoke } from './commands.js';

/** The secret alone on stdout (so `$(svc tokens create)` captures it); the rest on stderr. */
export async function create(context: ContextOf<typeof tokensCreate>): Promise<number> {
  const { options } = context;
  const admin = options.admin === true;
  // A scope is always said: a forgotten --workspace must not make a server-wide token.
  if (admin === (options.workspace !== undefined)) {
    throw new ServiceError('usage', admin ? 'give --workspace or --admin, not both' : 'say what the token is for: --workspace W (one workspace) or --admin (every workspace)');
  }
  return callServer(
    context,
    (api) => api.post(cliPaths.tokens(), admin ? { name: options.name, admin: true } : { name: options.name, workspace: options.workspace }, CreateTokenResponse),
    (created) => created.secret,
    (created) => {
      const scope = created.token.workspace === null ? 'admin token' : `token for workspace ${created.token.workspace}`;
      return `Created ${scope} "${created.token.name}" (${created.token.id}). It is shown only this once: keep it somewhere safe.`;
    },
  );
}

export async function list(context: ContextOf<typeof tokensList>): Promise<number> {
  const { out } = context;
  return callServer(
    context,
    (api) => api.get(cliPaths.tokens(), ListTokensResponse),
    (result) =>
      out.table(result.tokens, [
        { header: 'ID', value: (token) => token.id },
        { header: 'NAME', value: (token) => token.name },
        { header: 'SCOPE', value: (token) => (token.workspace === null ? 'admin' : `workspace ${token.workspace}`) },
        { header: 'CREATED', value: (token) => token.createdAt },
        { header: 'LAST USED', value: (token) => token.lastUsedAt ?? 'never' },
        { header: 'STATUS', value: (token) => (token.revokedAt === null ? 'active' : `revoked ${token.revokedAt}`) },
      ]),
  );
}

export async function revoke(context: ContextOf<typeof tokensRevoke>): Promise<number> {
  const id = requireArgument(context.args.id, 'the id of the token to revoke');
  return callServer(
    context,
    (api) => api.post(cliPaths.revokeToken(id), {}, RevokeTokenResponse),
    (result) => `Revoked token ${result.token.id} ("${result.token.name}").`,
  );
}
