import type { AnyCommand } from '../command.js';

/** Every `svc` command, in the order `svc --help` lists them. */
export const commands: readonly AnyCommand[] = [];
