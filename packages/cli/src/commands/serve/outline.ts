import { defineCommand, type CommandContext } from '../../command.js';
import { serveHelp } from './help.js';

/**
 * `svc serve` as every start of `svc` knows it: its name and help, without its flags. The
 * flags come from the server's table (packages/server/src/serve-flags.ts), which loads part
 * of the server: main() loads them (`./commands.ts`) only when the command line names
 * `serve`, so other commands start without the server.
 */
export const serveOutline = defineCommand({
  ...serveHelp,
  // Reached only if main() did not see `serve` on the command line: then no flag was given,
  // and the options come from the environment and the defaults, as they would with flags.
  async run(context: CommandContext): Promise<number> {
    const { serveCommand } = await import('./commands.js');
    return (await serveCommand.run(context)) ?? 0;
  },
});

/** Whether the command line names `svc serve` (or `svc help serve`): its flags are needed. */
export function namesServe(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  const words = (end === -1 ? argv : argv.slice(0, end)).filter((token) => !token.startsWith('-'));
  return words[0] === 'serve' || (words[0] === 'help' && words[1] === 'serve');
}
