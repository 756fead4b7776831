import { cliPaths } from '@svc/protocol';
import { ListTokensResponse } from '@svc/protocol/api';
import type { CommandContext } from '../../../command.js';
import { connect } from '../../../credentials/connect.js';

export async function runTokensList({ io, out }: CommandContext<object>): Promise<number> {
  const api = await connect(io);
  const result = await api.get(cliPaths.tokens(), ListTokensResponse);
  out.result(result, () =>
    out.table(result.tokens, [
      { header: 'ID', value: (token) => token.id },
      { header: 'NAME', value: (token) => token.name },
      { header: 'SCOPE', value: (token) => (token.workspace === null ? 'admin' : `workspace ${token.workspace}`) },
      { header: 'CREATED', value: (token) => token.createdAt },
      { header: 'LAST USED', value: (token) => token.lastUsedAt ?? 'never' },
      { header: 'STATUS', value: (token) => (token.revokedAt === null ? 'active' : `revoked ${token.revokedAt}`) },
    ]),
  );
  return 0;
}
