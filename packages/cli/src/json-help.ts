import type { Command } from 'commander';

/** The command that `argv` names: `svc webhooks add --help` → the `add` command of `webhooks`. */
export function commandNamedBy(program: Command, argv: readonly string[]): Command {
  let current = program;
  for (const token of argv) {
    if (token === '--') break;
    if (token.startsWith('-')) continue;
    const next = current.commands.find((command) => command.name() === token || command.aliases().includes(token));
    if (!next) break;
    current = next;
  }
  return current;
}

/** Whether `argv` names no command at all (only flags): `svc --version --json`. */
export function namesNoCommand(program: Command, argv: readonly string[]): boolean {
  return commandNamedBy(program, argv) === program;
}

export function fullName(command: Command): string {
  const names: string[] = [];
  for (let current: Command | null = command; current; current = current.parent) names.unshift(current.name());
  return names.join(' ');
}

/**
 * A command's help as one JSON document (`svc … --help --json`; docs/cli.md): what the
 * text help shows, as data.
 */
export function helpDocument(command: Command): Record<string, unknown> {
  const help = command.createHelp();
  return {
    ok: true,
    command: fullName(command),
    usage: help.commandUsage(command),
    description: help.commandDescription(command),
    commands: help.visibleCommands(command).map((child) => ({ name: child.name(), summary: child.summary() || child.description() })),
    arguments: help.visibleArguments(command).map((argument) => ({ name: argument.name(), description: argument.description, required: argument.required })),
    options: help.visibleOptions(command).map((option) => ({
      flags: option.flags,
      description: option.description,
      ...(option.defaultValue !== undefined ? { default: option.defaultValue as unknown } : {}),
      ...(option.envVar ? { env: option.envVar } : {}),
      ...(option.argChoices ? { choices: option.argChoices } : {}),
    })),
  };
}
