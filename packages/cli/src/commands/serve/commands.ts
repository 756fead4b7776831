import { ServiceError } from '@svc/protocol';
import { flagKey, serveFlags } from '@svc/server/serve-flags';
import { defineCommand, type FlagSpec } from '../../command.js';
import { runServe } from './run.js';

// One table of flags, environment variables, defaults and parsers, shared with the server
// (packages/server/src/serve-flags.ts); its values are parsed there, so they stay text here.
const flags: Readonly<Record<string, FlagSpec>> = Object.fromEntries(
  serveFlags.map((option) => [
    flagKey(option.flag),
    {
      flag: option.value ? `${option.flag} ${option.value}` : option.flag,
      description: `${option.description} (${option.value ? option.env : `${option.env}=true`})`,
      ...(option.value && option.env ? { env: option.env } : {}),
      ...(option.defaultValue !== undefined ? { defaultValue: option.defaultValue } : {}),
      ...(option.choices ? { choices: option.choices } : {}),
      ...(option.hidden ? { hidden: true } : {}),
    },
  ]),
);

export const serveCommand = defineCommand({
  name: 'serve',
  summary: 'run the server: form endpoint, webhook delivery, CLI API',
  description: `Run the server. With no flags it uses the embedded SQLite database under ./.svc.
Every flag can also be given as the environment variable shown.
SVC_ENCRYPTION_KEY (base64 of 32 bytes) encrypts webhook signing secrets; without it the key
is <data-dir>/encryption.key. Instances that share a database must share SVC_ENCRYPTION_KEY.`,
  flags,
  examples: [
    'svc serve',
    'svc serve --port 0 --data-dir /var/lib/svc',
    'svc serve --database-url postgres://svc@db/svc --redis-url redis://cache:6379 --host 0.0.0.0 --trust-proxy',
    'SVC_BOOTSTRAP_TOKEN=$(openssl rand -hex 32) svc serve --json',
  ],
  async run(context): Promise<number> {
    try {
      return await runServe(context);
    } catch (error) {
      if (error instanceof ServiceError) throw error;
      throw new ServiceError('unavailable', `the server could not start: ${(error as Error).message}`, undefined, { cause: error });
    }
  },
});
