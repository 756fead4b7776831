import { defineGroup, handlersIn, lazyCommand } from '../../command.js';

const run = handlersIn(() => import('./run.js'));

export const tokensCreate = lazyCommand('create', run('create'), {
  summary: 'create a token; it is printed this once',
  description: `Create a token and print it on stdout, this once: only its hash is stored. Say its scope: --workspace W (an existing workspace; the token sees and changes only it) or --admin (every workspace, token management). Owners and workspace tokens make tokens for their own workspace; only an admin token makes admin tokens.`,
  flags: {
    name: { flag: '--name <name>', description: 'a name to recognise it by in `svc tokens list`' },
    workspace: { flag: '--workspace <slug>', description: 'limit the token to this workspace, which must exist' },
    admin: { flag: '--admin', description: 'a server-wide admin token instead' },
  },
  examples: ['svc tokens create --name ci --workspace acme', 'TOKEN=$(svc tokens create --name deploy --workspace acme)', 'svc tokens create --name ops --admin --json'],
});

export const tokensList = lazyCommand('list', run('list'), {
  summary: 'list every token (never the token itself), newest first',
  examples: ['svc tokens list', 'svc tokens list --json | jq -r \'.tokens[] | select(.revokedAt == null) | .id\''],
});

export const tokensRevoke = lazyCommand('revoke', run('revoke'), {
  summary: 'revoke a token: it stops working at once',
  description: 'Revoke a token by its id (from `svc tokens list`). Revoking a revoked token changes nothing. The last working admin token cannot be revoked.',
  arguments: { id: { description: 'the token\'s id, e.g. tok_…' } },
  examples: ['svc tokens revoke tok_06gztftsnm20n7cy0sc5myj7rr'],
});

export const tokensCommand = defineGroup({
  name: 'tokens',
  summary: 'CLI tokens: create, list, revoke (admin tokens only)',
  commands: [tokensCreate, tokensList, tokensRevoke],
});
