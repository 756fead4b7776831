import { cliPaths, ServiceError } from '@svc/protocol';
import { WhoamiResponse } from '@svc/protocol/api';
import { ApiClient } from '../../api/api-client.js';
import type { CommandContext } from '../../command.js';
import { credentialsPath } from '../../credentials/config-dir.js';
import { defaultApiUrl, normalizeApiUrl } from '../../credentials/connect.js';
import { writeCredentials } from '../../credentials/credentials-file.js';
import { canPrompt } from '../../io.js';
import { Prompter } from '../../prompts.js';

export interface LoginFlags {
  token?: string;
  api?: string;
}

/** `svc login`: the token is saved only once the server has accepted it; it is never printed. */
export async function runLogin({ options, io, out }: CommandContext<LoginFlags>): Promise<number> {
  const given = options.api ?? io.env['SVC_API_URL'];
  const apiUrl = given === undefined || given === '' ? defaultApiUrl : normalizeApiUrl(given, options.api === undefined ? 'SVC_API_URL' : '--api');
  let token = options.token?.trim();
  if (token === undefined || token === '') {
    if (!canPrompt(io, options.json)) throw new ServiceError('usage', 'pass the token with --token');
    token = (await new Prompter(io).password(`Token for ${apiUrl}`)).trim();
  }

  const { token: identity } = await new ApiClient({ apiUrl, token }).get(cliPaths.token(), WhoamiResponse);
  const file = credentialsPath(io.env);
  await writeCredentials(file, { apiUrl, token });

  out.result({ ok: true, apiUrl, token: identity, credentialsFile: file }, () => {
    const scope = identity.admin ? 'admin: every workspace' : `workspace ${identity.workspace ?? '?'}`;
    return `Logged in to ${apiUrl} with token "${identity.name}" (${scope}).\nSaved to ${file}`;
  });
  return 0;
}
