import type { Io } from './io.js';
import type { Output } from './output.js';

export interface OptionSpec {
  /** Commander flags, e.g. `--workspace <slug>` or `--yes`. */
  readonly flags: string;
  readonly description: string;
  readonly defaultValue?: string | boolean;
  readonly choices?: readonly string[];
  /** Environment variable that supplies the value when the flag is absent. */
  readonly env?: string;
  readonly hidden?: boolean;
}

export interface ArgumentSpec {
  /** `<name>` for a required argument, `[name]` for an optional one. */
  readonly name: string;
  readonly description: string;
}

export interface CommandContext<Options> {
  readonly args: readonly (string | undefined)[];
  readonly options: Options & { json: boolean };
  readonly io: Io;
  readonly out: Output;
}

/**
 * A command is data (name, flags, examples) plus a handler that takes its context and
 * returns an exit code. Only main() ends the process.
 */
export interface CommandSpec<Options = Record<string, unknown>> {
  readonly name: string;
  readonly summary: string;
  readonly description?: string;
  readonly arguments?: readonly ArgumentSpec[];
  readonly options?: readonly OptionSpec[];
  readonly examples?: readonly string[];
  run(context: CommandContext<Options>): Promise<number | void>;
}

/** A command with subcommands, such as `svc webhooks add|list|…`. */
export interface CommandGroup {
  readonly name: string;
  readonly summary: string;
  readonly commands: readonly AnyCommand[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each handler declares its own option type
export type AnyCommand = CommandSpec<any> | CommandGroup;

export function defineCommand<Options>(spec: CommandSpec<Options>): CommandSpec<Options> {
  return spec;
}

export function isGroup(command: AnyCommand): command is CommandGroup {
  return 'commands' in command;
}
