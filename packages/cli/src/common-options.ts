/** `--workspace` and `--project`: which project a command acts on, instead of ./service.json. */
export const projectFlags = {
  workspace: { flag: '--workspace <slug>', description: 'workspace of the project (default: from ./service.json)' },
  project: { flag: '--project <name>', description: 'project name (default: from ./service.json)' },
} as const;

export const yesFlag = { yes: { flag: '-y, --yes', description: 'never ask: use the flags and defaults' } } as const;
