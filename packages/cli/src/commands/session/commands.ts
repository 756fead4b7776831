import { handlersIn, lazyCommand } from '../../command.js';

const run = handlersIn(() => import('./run.js'));

export const loginCommand = lazyCommand('login', run('runLogin'), {
  summary: 'check a token against the server and save it for the other commands',
  description: `Check a token against the server, then save it with the server's address in credentials.json under the config directory (SVC_CONFIG_DIR, else $XDG_CONFIG_HOME/svc, else ~/.config/svc), readable by you only. SVC_TOKEN and SVC_API_URL, when set, are used instead. Without --token, asks for it on a terminal.`,
  flags: {
    token: { flag: '--token <token>', description: 'the token (from `svc serve` or `svc tokens create`)' },
    api: { flag: '--api <url>', description: 'the server address (default: SVC_API_URL, else http://127.0.0.1:8787)' },
  },
  examples: ['svc login --token svc_… --api https://svc.example.com', 'svc login --api http://127.0.0.1:8787    # asks for the token'],
});

export const openCommand = lazyCommand('open', run('runOpen'), {
  summary: 'print a one-time sign-in link to the settings area (and open it in the browser on a terminal)',
  description:
    'Ask the server for a sign-in link to the settings area that signs you in with your token: valid 5 minutes, usable once. On a terminal it is also opened in your browser; with --json, stdout holds {"ok":true,"url":"…"} only.',
  examples: ['svc open', 'svc open --json | jq -r .url'],
});
