import { spawn } from 'node:child_process';
import { cliPaths } from '@svc/protocol';
import { SignInLinkResponse } from '@svc/protocol/api';
import type { CommandContext } from '../../command.js';
import { connect } from '../../credentials/connect.js';
import { canPrompt } from '../../io.js';

export async function runOpen({ io, out, options }: CommandContext<object>): Promise<number> {
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
