import { ServiceError } from '@svc/protocol';
import { flagKey, serveFlags } from '@svc/server/serve-flags';
import { defineCommand, type FlagSpec } from '../../command.js';
import { serveHelp } from './help.js';
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

/** `svc serve` with its flags: loaded only when the command line names it (./outline.ts). */
export const serveCommand = defineCommand({
  ...serveHelp,
  flags,
  async run(context): Promise<number> {
    try {
      return await runServe(context);
    } catch (error) {
      if (error instanceof ServiceError) throw error;
      throw new ServiceError('unavailable', `the server could not start: ${(error as Error).message}`, undefined, { cause: error });
    }
  },
});
