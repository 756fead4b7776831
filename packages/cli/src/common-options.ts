import { lazyCommand, type ArgumentSpec, type ArgumentSpecs, type CommandSpec, type FlagSpec, type FlagSpecs, type Handler } from './command.js';

/** `--workspace` and `--project`: which project a command acts on, instead of ./service.json. */
export const projectFlags = {
  workspace: { flag: '--workspace <slug>', description: 'workspace of the project (default: from ./service.json)' },
  project: { flag: '--project <name>', description: 'project name (default: from ./service.json)' },
} as const;

export type ProjectFlags = typeof projectFlags;

export const yesFlag = { yes: { flag: '-y, --yes', description: 'never ask: use the flags and defaults' } } as const;

/** The three environments of a project (docs/configuration.md). */
export const environmentChoices = ['production', 'staging', 'development'] as const;

/** A flag that names one environment, e.g. `--environment <env>` or `--to <env>`. */
export function environmentFlag<const Flag extends string>(flag: Flag, description: string): { readonly flag: Flag; readonly description: string; readonly choices: typeof environmentChoices } {
  return { flag, description, choices: environmentChoices };
}

/** `--limit` and `--cursor` of a listing printed a page at a time; `things` names what a page holds. */
export function pageFlags(things: string, size: { readonly default: number; readonly max: number }) {
  return {
    limit: { flag: '--limit <n>', description: `${things} per page, 1 to ${size.max} (default ${size.default})` },
    cursor: { flag: '--cursor <cursor>', description: 'continue after the page that gave this cursor' },
  } as const;
}

/** The argument of a command that acts on one thing by its id. */
export function idArgument(description: string): { readonly id: { readonly description: string } } {
  return { id: { description } };
}

/**
 * The command `name` that acts on one project, run by a handler loaded when it runs: its own flags
 * are followed by `--workspace` and `--project`.
 */
export function projectCommand<const F extends FlagSpecs = Record<never, FlagSpec>, const A extends ArgumentSpecs = Record<never, ArgumentSpec>>(
  name: string,
  run: Handler,
  spec: Omit<CommandSpec<F & ProjectFlags, A>, 'name' | 'flags' | 'run'> & { readonly flags?: F },
): CommandSpec<F & ProjectFlags, A> {
  return lazyCommand<F & ProjectFlags, A>(name, run, { ...spec, flags: { ...spec.flags, ...projectFlags } as F & ProjectFlags });
}
