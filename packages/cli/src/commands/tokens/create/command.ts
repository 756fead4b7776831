import { defineCommand } from '../../../command.js';
import type { TokensCreateFlags } from './run-tokens-create.js';

export const tokensCreateCommand = defineCommand<TokensCreateFlags>({
  name: 'create',
  summary: 'create a token; it is printed this once',
  description: `Create a token and print it on stdout, this once: only its hash is stored. With --workspace the token sees and changes only that workspace (created if new); without, it is an admin token (every workspace, token management). Needs an admin token.`,
  options: [
    { flags: '--name <name>', description: 'a name to recognise it by in `svc tokens list`' },
    { flags: '--workspace <slug>', description: 'limit the token to this workspace' },
  ],
  examples: ['svc tokens create --name ci --workspace acme', 'TOKEN=$(svc tokens create --name deploy --workspace acme)', 'svc tokens create --name ops --json'],
  run: async (context) => (await import('./run-tokens-create.js')).runTokensCreate(context),
});
