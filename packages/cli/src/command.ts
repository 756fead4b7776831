import type { Io } from './io.js';
import type { Output } from './output.js';

/**
 * One flag. Its key in the command's `flags` object is the property the parsed value is
 * found under, so it must be commander's name for it (`--dry-run` → `dryRun`);
 * buildProgram() refuses a spec where they differ.
 */
export interface FlagSpec {
  /** Commander flags, e.g. `--workspace <slug>`, `--events <patterns...>` or `-y, --yes`. */
  readonly flag: string;
  readonly description: string;
  readonly defaultValue?: string | boolean;
  readonly choices?: readonly string[];
  /** Environment variable that supplies the value when the flag is absent. */
  readonly env?: string;
  readonly hidden?: boolean;
}

/** A positional argument; its key in `arguments` is its name in the help. */
export interface ArgumentSpec {
  readonly description: string;
  readonly optional?: boolean;
}

export type FlagSpecs = Readonly<Record<string, FlagSpec>>;
export type ArgumentSpecs = Readonly<Record<string, ArgumentSpec>>;

/** The parsed value of one flag, typed from its spelling: `<v...>` a list, `<v>` text, none a switch. */
type FlagValue<S extends FlagSpec> = S extends { readonly choices: readonly (infer Choice)[] }
  ? Choice
  : S['flag'] extends `${string}...>`
    ? string[]
    : S['flag'] extends `${string}<${string}>`
      ? string
      : boolean;

export type FlagValues<F extends FlagSpecs> = {
  -readonly [K in keyof F]: F[K] extends { readonly defaultValue: string | boolean } ? FlagValue<F[K]> : FlagValue<F[K]> | undefined;
};

export type ArgumentValues<A extends ArgumentSpecs> = {
  readonly [K in keyof A]: A[K] extends { readonly optional: true } ? string | undefined : string;
};

export interface CommandContext<F extends FlagSpecs = FlagSpecs, A extends ArgumentSpecs = ArgumentSpecs> {
  readonly args: ArgumentValues<A>;
  readonly options: FlagValues<F> & { json: boolean };
  readonly io: Io;
  readonly out: Output;
}

/**
 * A command is data (name, flags, arguments, examples) plus a handler that takes its
 * context and returns an exit code. Only main() ends the process.
 */
export interface CommandSpec<F extends FlagSpecs = FlagSpecs, A extends ArgumentSpecs = ArgumentSpecs> {
  readonly name: string;
  readonly summary: string;
  readonly description?: string;
  readonly arguments?: A;
  readonly flags?: F;
  readonly examples?: readonly string[];
  run(context: CommandContext<F, A>): Promise<number | void>;
}

/** A command with subcommands, such as `svc webhooks add|list|…`. */
export interface CommandGroup {
  readonly name: string;
  readonly summary: string;
  readonly commands: readonly AnyCommand[];
}

/** Any command: `run` is a method, so a spec with typed flags is still a CommandSpec. */
export type AnyCommand = CommandSpec | CommandGroup;

/** Types the handler's flags and arguments from the spec, so the two cannot drift apart. */
export function defineCommand<const F extends FlagSpecs = Record<never, FlagSpec>, const A extends ArgumentSpecs = Record<never, ArgumentSpec>>(
  spec: CommandSpec<F, A>,
): CommandSpec<F, A> {
  return spec;
}

/**
 * A command's handler. Handlers live in modules imported only when one of their commands
 * runs (`handlersIn`), so a start of `svc` loads the specs alone.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each handler takes its own spec's context (ContextOf)
export type Handler = (context: CommandContext<any, any>) => Promise<number | void>;

/** The handlers exported by the module `load` imports, by name: `handlersIn(() => import('./run.js'))('list')`. */
export function handlersIn<M>(load: () => Promise<M>): (name: keyof M & string) => Handler {
  return (name) => async (context) => ((await load())[name] as Handler)(context);
}

/** defineCommand() for the command `name` whose handler is loaded when it runs. */
export function lazyCommand<const F extends FlagSpecs = Record<never, FlagSpec>, const A extends ArgumentSpecs = Record<never, ArgumentSpec>>(
  name: string,
  run: Handler,
  spec: Omit<CommandSpec<F, A>, 'name' | 'run'>,
): CommandSpec<F, A> {
  return { name, ...spec, run };
}

export function defineGroup(group: CommandGroup): CommandGroup {
  return group;
}

export function isGroup(command: AnyCommand): command is CommandGroup {
  return 'commands' in command;
}

/** The context a command's handler gets, from its spec: `ContextOf<typeof webhooksAdd>`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- matches any spec to infer its flags and arguments
export type ContextOf<C extends CommandSpec<any, any>> = C extends CommandSpec<infer F, infer A> ? CommandContext<F, A> : never;
