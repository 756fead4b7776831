import { createRequire } from 'node:module';
import { Command, Option } from 'commander';
import { isGroup, type AnyCommand, type ArgumentSpecs, type ArgumentValues, type CommandSpec } from './command.js';
import { toServiceError } from './errors.js';
import type { Io } from './io.js';
import { Output } from './output.js';

const require = createRequire(import.meta.url);
export const cliVersion = (require('../package.json') as { version: string }).version;

const jsonFlag = '--json';
const jsonDescription = 'print one JSON document on stdout and nothing else';

export interface ProgramHooks {
  /** Called with the exit code of the command that ran. */
  onExit(code: number): void;
  /** Whether usage errors are reported as JSON (decided before parsing could finish). */
  readonly json: boolean;
}

export function buildProgram(io: Io, commands: readonly AnyCommand[], hooks: ProgramHooks): Command {
  const program = new Command('svc')
    .description(
      'A self-hostable service for web agencies: form endpoints that keep every submission, signed webhooks, a settings area in the browser, the Pinpoints feedback widget with its requests inbox, and static hosting with deploys. Configure a project with service.json; run the service with `svc serve`.',
    )
    .version(cliVersion, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option(jsonFlag, jsonDescription)
    .exitOverride()
    .showHelpAfterError(hooks.json ? false : '(add --help for usage)')
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // With --json the usage error becomes the JSON document main() writes.
      outputError: (text, write) => {
        if (!hooks.json) write(text);
      },
    });
  program.addHelpText(
    'after',
    `
Examples:
  $ svc validate                      check ./service.json
  $ svc serve --port 8787             run the server on the embedded database
  $ svc push --json                   apply service.json, print the result as JSON

Every command takes --json. Exit codes: 0 ok, 1 failure you can fix, 2 usage, 3 network or server.`,
  );
  for (const command of commands) addCommand(program, command, io, hooks);
  return program;
}

function addCommand(parent: Command, spec: AnyCommand, io: Io, hooks: ProgramHooks): void {
  const command = parent.command(spec.name).summary(spec.summary).description(spec.summary);
  if (isGroup(spec)) {
    command.option(jsonFlag, jsonDescription);
    for (const child of spec.commands) addCommand(command, child, io, hooks);
    return;
  }
  describe(command, spec);
  const argumentNames = Object.keys(spec.arguments ?? {});
  command.action(async (...actionArgs: unknown[]) => {
    const self = actionArgs[actionArgs.length - 1] as Command;
    // Commander has checked that every required argument is there.
    const args = Object.fromEntries(argumentNames.map((name, index) => [name, actionArgs[index]])) as ArgumentValues<ArgumentSpecs>;
    const options = self.optsWithGlobals<Record<string, unknown>>();
    const json = options['json'] === true;
    const out = new Output(io, json);
    try {
      const code = await spec.run({ args, options: { ...options, json }, io, out });
      hooks.onExit(code ?? 0);
    } catch (error) {
      const failure = toServiceError(error);
      out.failure(failure);
      hooks.onExit(failure.exitCode);
    }
  });
}

function describe(command: Command, spec: Pick<CommandSpec, 'description' | 'arguments' | 'flags' | 'examples'>): void {
  if (spec.description) command.description(spec.description);
  for (const [name, argument] of Object.entries(spec.arguments ?? {})) {
    command.argument(argument.optional ? `[${name}]` : `<${name}>`, argument.description);
  }
  for (const [key, flag] of Object.entries(spec.flags ?? {})) {
    const option = new Option(flag.flag, flag.description);
    // The handler reads the value under the spec's key: it must be commander's name for it.
    if (option.attributeName() !== key) throw new Error(`the flag ${flag.flag} of \`${command.name()}\` must have the key ${option.attributeName()}, not ${key}`);
    if (flag.defaultValue !== undefined) option.default(flag.defaultValue);
    if (flag.choices) option.choices(flag.choices);
    if (flag.env) option.env(flag.env);
    if (flag.hidden) option.hideHelp();
    command.addOption(option);
  }
  command.option(jsonFlag, jsonDescription);
  if (spec.examples && spec.examples.length > 0) {
    command.addHelpText('after', `\nExamples:\n${spec.examples.map((line) => `  $ ${line}`).join('\n')}\n`);
  }
}
