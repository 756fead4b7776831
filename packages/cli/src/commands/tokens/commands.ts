import { defineCommand, defineGroup } from '../../command.js';

export const tokensCreate = defineCommand({
  name: 'create',
  summary: 'create a token; it is printed this once',
  description: `Create a token and print it on stdout, this once: only its hash is stored. Say its scope: --workspace W (an existing workspace; the token sees and changes only it) or --admin (every workspace, token management). Owners and workspace tokens make tokens for their own workspace; only an admin token makes admin tokens.`,
  flags: {
    name: { flag: '--name <name>', description: 'a name to recognise it by in `svc tokens list`' },
    workspace: { flag: '--workspace <slug>', description: 'limit the token to this workspace, which must exist' },
    admin: { flag: '--admin', description: 'a server-wide admin token instead' },
  },
  examples: ['svc tokens create --name ci --workspace acme', 'TOKEN=$(svc tokens create --name deploy --workspace acme)', 'svc tokens create --name ops --admin --json'],
  run: async (context): Promise<number> => (await import('./run.js')).create(context),
});

export const tokensList = defineCommand({
  name: 'list',
  summary: 'list every token (never the token itself), newest first',
  examples: ['svc tokens list', 'svc tokens list --json | jq -r \'.tokens[] | select(.revokedAt == null) | .id\''],
  run: async (context): Promise<number> => (await import('./run.js')).list(context),
});

export const tokensRevoke = defineCommand({
  name: 'revoke',
  summary: 'revoke a token: it stops working at once',
  description: 'Revoke a token by its id (from `svc tokens list`). Revoking a revoked token changes nothing. The last working admin token cannot be revoked.',
  arguments: { id: { description: 'the token\'s id, e.g. tok_…' } },
  examples: ['svc tokens revoke tok_06gztftsnm20n7cy0sc5myj7rr'],
  run: async (context): Promise<number> => (await import('./run.js')).revoke(context),
});

export const tokensCommand = defineGroup({
  name: 'tokens',
  summary: 'CLI tokens: create, list, revoke (admin tokens only)',
  commands: [tokensCreate, tokensList, tokensRevoke],
});
