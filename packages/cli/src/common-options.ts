import type { OptionSpec } from './command.js';

/** `--workspace` and `--project`: which project a command acts on, instead of ./service.json. */
export const projectOptions: readonly OptionSpec[] = [
  { flags: '--workspace <slug>', description: 'workspace of the project (default: from ./service.json)' },
  { flags: '--project <name>', description: 'project name (default: from ./service.json)' },
];

export const yesOption: OptionSpec = { flags: '-y, --yes', description: 'never ask: use the flags and defaults' };
