import type { AnyCommand } from '../command.js';
import { auditLogCommand } from './audit-log/commands.js';
import { backupCommand, restoreCommand } from './backup/commands.js';
import { deliveriesCommand } from './deliveries/commands.js';
import { deployCommand, deploysCommand } from './deploy/commands.js';
import { formsCommand } from './forms/commands.js';
import { buildsCommand, gitCommand, hooksCommand } from './git/commands.js';
import { membersCommand } from './members/commands.js';
import { pinpointsCommand } from './pinpoints/commands.js';
import { requestsCommand } from './requests/commands.js';
import { namesServe, serveOutline } from './serve/outline.js';
import { initCommand, linkCommand, pullCommand, pushCommand, validateCommand } from './service-file/commands.js';
import { loginCommand, openCommand } from './session/commands.js';
import { submissionsCommand } from './submissions/commands.js';
import { tokensCommand } from './tokens/commands.js';
import { webhooksCommand } from './webhooks/commands.js';

/**
 * Every `svc` command but `serve`, in the order `svc --help` lists them. Each group's specs
 * are data in its `commands.ts`; the handlers are imported when a command runs, so a start
 * of `svc` loads no more than the specs.
 */
const clientCommands: readonly AnyCommand[] = [
  validateCommand,
  loginCommand,
  initCommand,
  linkCommand,
  pushCommand,
  pullCommand,
  formsCommand,
  submissionsCommand,
  webhooksCommand,
  deliveriesCommand,
  deployCommand,
  deploysCommand,
  gitCommand,
  hooksCommand,
  buildsCommand,
  pinpointsCommand,
  requestsCommand,
  tokensCommand,
  membersCommand,
  auditLogCommand,
  openCommand,
  backupCommand,
  restoreCommand,
];

/** The commands for this command line: `serve` with its flags only when it is the one named. */
export async function commandsFor(argv: readonly string[]): Promise<readonly AnyCommand[]> {
  const serve = namesServe(argv) ? (await import('./serve/commands.js')).serveCommand : serveOutline;
  return [serve, ...clientCommands];
}
