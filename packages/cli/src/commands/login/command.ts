import { defineCommand } from '../../command.js';
import type { LoginFlags } from './run-login.js';

export const loginCommand = defineCommand<LoginFlags>({
  name: 'login',
  summary: 'check a token against the server and save it for the other commands',
  description: `Check a token against the server, then save it with the server's address in credentials.json under the config directory (SVC_CONFIG_DIR, else $XDG_CONFIG_HOME/svc, else ~/.config/svc), readable by you only. SVC_TOKEN and SVC_API_URL, when set, are used instead. Without --token, asks for it on a terminal.`,
  options: [
    { flags: '--token <token>', description: 'the token (from `svc serve` or `svc tokens create`)' },
    { flags: '--api <url>', description: 'the server address (default: SVC_API_URL, else http://127.0.0.1:8787)' },
  ],
  examples: ['svc login --token svc_… --api https://svc.example.com', 'svc login --api http://127.0.0.1:8787    # asks for the token'],
  run: async (context) => (await import('./run-login.js')).runLogin(context),
});
