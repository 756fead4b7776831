import { defineCommand } from '../../command.js';

export const openCommand = defineCommand<object>({
  name: 'open',
  summary: 'print a one-time sign-in link to the settings area (and open it in the browser on a terminal)',
  description:
    'Ask the server for a sign-in link to the settings area that signs you in with your token: valid 5 minutes, usable once. On a terminal it is also opened in your browser; with --json, stdout holds {"ok":true,"url":"…"} only.',
  examples: ['svc open', 'svc open --json | jq -r .url'],
  run: async (context) => (await import('./run-open.js')).runOpen(context),
});
