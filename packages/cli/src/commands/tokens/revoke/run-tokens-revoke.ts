import { cliPaths, ServiceError } from '@svc/protocol';
import { RevokeTokenResponse } from '@svc/protocol/api';
import type { CommandContext } from '../../../command.js';
import { connect } from '../../../credentials/connect.js';

export async function runTokensRevoke({ args, io, out }: CommandContext<object>): Promise<number> {
  const id = args[0];
  if (id === undefined || id === '') throw new ServiceError('usage', 'give the id of the token to revoke');
  const api = await connect(io);
  const result = await api.post(cliPaths.revokeToken(id), {}, RevokeTokenResponse);
  out.result(result, () => `Revoked token ${result.token.id} ("${result.token.name}").`);
  return 0;
}
