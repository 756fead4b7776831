import { spawn } from 'node:child_process';
import { cliPaths, ServiceError } from '@svc/protocol';
import { SignInLinkResponse, WhoamiResponse } from '@svc/protocol/api';
import { ApiClient } from '../../api/api-client.js';
import type { ContextOf } from '../../command.js';
import { credentialsPath } from '../../credentials/config-dir.js';
import { connect, defaultApiUrl, normalizeApiUrl } from '../../credentials/connect.js';
import { writeCredentials } from '../../credentials/credentials-file.js';
import { canPrompt } from '../../io.js';
import { Prompter } from '../../prompts.js';
import type { loginCommand, openCommand } from './commands.js';

/** `svc login`: the token is saved only once the server has accepted it; it is never printed. */
export async function runLogin({ options, io, out }: ContextOf<typeof loginCommand>): Promise<number> {
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

export async function runOpen({ io, out, options }: ContextOf<typeof openCommand>): Promise<number> {
  const api = await connect(io);
  const link = await api.post(cliPaths.signInLinks(), {}, SignInLinkResponse);
  out.result(link, () => `Sign-in link (valid 5 minutes, once):\n${link.url}`);
  // Only a person at a terminal gets a browser; scripts and CI get the link alone.
  if (!options.json && Boolean(io.stdout.isTTY) && canPrompt(io, false)) openInBrowser(link.url);
  return 0;
}

function openInBrowser(url: string): void {
  const [command, args] = process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No browser here: the printed link is enough.
  }
}
