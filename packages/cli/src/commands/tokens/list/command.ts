import { defineCommand } from '../../../command.js';

export const tokensListCommand = defineCommand<object>({
  name: 'list',
  summary: 'list every token (never the token itself), newest first',
  examples: ['svc tokens list', 'svc tokens list --json | jq -r \'.tokens[] | select(.revokedAt == null) | .id\''],
  run: async (context) => (await import('./run-tokens-list.js')).runTokensList(context),
});
