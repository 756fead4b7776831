import { cliPaths } from '@svc/protocol';
import { CreateTokenResponse } from '@svc/protocol/api';
import type { CommandContext } from '../../../command.js';
import { connect } from '../../../credentials/connect.js';

export interface TokensCreateFlags {
  name?: string;
  workspace?: string;
}

/** The secret alone on stdout (so `$(svc tokens create)` captures it); the rest on stderr. */
export async function runTokensCreate({ options, io, out }: CommandContext<TokensCreateFlags>): Promise<number> {
  const api = await connect(io);
  const created = await api.post(cliPaths.tokens(), { name: options.name, workspace: options.workspace }, CreateTokenResponse);
  out.result(created, () => created.secret);
  if (!out.json) {
    const scope = created.token.workspace === null ? 'admin token' : `token for workspace ${created.token.workspace}`;
    out.note(`Created ${scope} "${created.token.name}" (${created.token.id}). It is shown only this once: keep it somewhere safe.`);
  }
  return 0;
}
