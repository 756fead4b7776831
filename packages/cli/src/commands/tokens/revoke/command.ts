import { defineCommand } from '../../../command.js';

export const tokensRevokeCommand = defineCommand<object>({
  name: 'revoke',
  summary: 'revoke a token: it stops working at once',
  description: 'Revoke a token by its id (from `svc tokens list`). Revoking a revoked token changes nothing. The last working admin token cannot be revoked.',
  arguments: [{ name: '<id>', description: 'the token\'s id, e.g. tok_…' }],
  examples: ['svc tokens revoke tok_06gztftsnm20n7cy0sc5myj7rr'],
  run: async (context) => (await import('./run-tokens-revoke.js')).runTokensRevoke(context),
});
