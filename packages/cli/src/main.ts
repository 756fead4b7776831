import { CommanderError } from 'commander';
import { ServiceError } from '@svc/protocol';
import { commandsFor } from './commands/index.js';
import type { Io } from './io.js';
import { Output } from './output.js';
import { commandNamedBy, fullName, helpDocument, namesNoCommand } from './json-help.js';
import { buildProgram, cliVersion } from './program.js';

/**
 * Runs `svc` with the given arguments and returns the exit code. Commander parses the
 * command line once; `--json` is also looked for up front only so that a usage error,
 * which stops parsing before options are known, can still be reported as JSON.
 */
export async function main(argv: readonly string[], io: Io): Promise<number> {
  const json = mentionsJson(argv);
  let exitCode = 0;
  const program = buildProgram(io, await commandsFor(argv), {
    json,
    onExit: (code) => {
      exitCode = code;
    },
  });
  // --help and --version are answered by commander as text; under --json, as one document.
  const flags = beforeDoubleDash(argv);
  if (json && (flags.includes('--help') || flags.includes('-h'))) {
    new Output(io, true).result(helpDocument(commandNamedBy(program, argv)));
    return 0;
  }
  if (json && (flags.includes('--version') || flags.includes('-v')) && namesNoCommand(program, argv)) {
    new Output(io, true).result({ ok: true, version: cliVersion });
    return 0;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.exitCode === 0) return 0; // --help, --version
      // A group without its subcommand: commander printed the group's help (to stderr) and
      // stops with "(outputHelp)", which is no message for a person or a script.
      const group = error.code === 'commander.help' ? commandNamedBy(program, argv) : null;
      const message = group
        ? `${fullName(group)} needs a subcommand: ${group.commands.map((command) => command.name()).join(', ')} (see ${fullName(group)} --help)`
        : error.message.replace(/^error: /, '');
      const usage = new ServiceError('usage', message);
      if (json) new Output(io, true).failure(usage);
      return usage.exitCode;
    }
    throw error;
  }
}

function beforeDoubleDash(argv: readonly string[]): readonly string[] {
  const end = argv.indexOf('--');
  return end === -1 ? argv : argv.slice(0, end);
}

function mentionsJson(argv: readonly string[]): boolean {
  return beforeDoubleDash(argv).includes('--json');
}
