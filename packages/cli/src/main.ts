import { CommanderError } from 'commander';
import { ServiceError } from '@svc/protocol';
import { commands } from './commands/index.js';
import type { Io } from './io.js';
import { Output } from './output.js';
import { buildProgram } from './program.js';

/**
 * Runs `svc` with the given arguments and returns the exit code. Commander parses the
 * command line once; `--json` is also looked for up front only so that a usage error,
 * which stops parsing before options are known, can still be reported as JSON.
 */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const json = mentionsJson(argv);
  let exitCode = 0;
  const program = buildProgram(io, commands, {
    json,
    onExit: (code) => {
      exitCode = code;
    },
  });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0; // --help, --version
      const message = error.message.replace(/^error: /, '');
      const usage = new ServiceError('usage', message);
      if (json) new Output(io, true).failure(usage);
      return usage.exitCode;
    }
    throw error;
  }
}

function mentionsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}
