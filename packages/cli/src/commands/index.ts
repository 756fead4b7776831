import type { AnyCommand } from '../command.js';
import { validateCommand } from './validate/command.js';
import { serveCommand } from './serve/command.js';

/** Every `svc` command, in the order `svc --help` lists them. */
export const commands: readonly AnyCommand[] = [
  serveCommand,
  validateCommand,
];
