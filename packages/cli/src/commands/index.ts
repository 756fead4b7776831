import type { AnyCommand } from '../command.js';
import { validateCommand } from './validate/command.js';
import { serveCommand } from './serve/command.js';
import { loginCommand } from './login/command.js';
import { initCommand } from './init/command.js';
import { linkCommand } from './link/command.js';
import { pushCommand } from './push/command.js';
import { pullCommand } from './pull/command.js';
import { formsCommand } from './forms/command.js';
import { submissionsCommand } from './submissions/command.js';
import { tokensCommand } from './tokens/command.js';
import { webhooksCommand } from './webhooks/command.js';
import { deliveriesCommand } from './deliveries/command.js';
import { openCommand } from './open/command.js';

/**
 * Every `svc` command, in the order `svc --help` lists them. Commands that talk to the
 * server import their handler when they run, so the schema code they need is not loaded by
 * every start of `svc`.
 */
export const commands: readonly AnyCommand[] = [
  serveCommand,
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
  tokensCommand,
  openCommand,
];
