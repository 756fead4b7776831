import { resolve } from 'node:path';
import { validate, type ConfigError } from '@svc/config';
import { errorCodes } from '@svc/protocol';
import type { ContextOf } from '../../command.js';
import type { Output } from '../../output.js';
import type { validateCommand } from './commands.js';
import { readConfigText } from './read-config-text.js';

export const defaultConfigFile = 'service.json';

/**
 * `svc validate [FILE]`: offline check of a service.json. Exit 0 when valid, 1 when invalid
 * (every error listed) or when the file cannot be read.
 */
export async function runValidate({ args, io, out }: ContextOf<typeof validateCommand>): Promise<number> {
  const given = args.file;
  const file = given ?? defaultConfigFile;
  const hint = given === undefined ? 'run the command in the project directory, or pass the file to check' : undefined;
  const result = validate(await readConfigText(resolve(io.cwd, file), file, hint));
  if (result.ok) {
    out.result({ ok: true }, () => `${file} is valid`);
  } else {
    reportInvalid(out, file, result.errors);
  }
  return result.ok ? 0 : errorCodes.config_invalid.exit;
}

/**
 * Prints the errors of an invalid file: one line each on stdout and a summary on stderr, or
 * with --json the `{"ok":false,"errors":[…]}` document. `svc push` reports with it too.
 */
export function reportInvalid(out: Output, file: string, errors: readonly ConfigError[]): void {
  const summary = `${errors.length} ${errors.length === 1 ? 'error' : 'errors'} in ${file}`;
  out.result({ ok: false, errors }, () => errors.map((error) => formatError(file, error, out)).join('\n'));
  if (!out.json) out.note(summary);
}

/** `service.json:7:16 error /auto/timeout must be >= 60`, as compilers print them; no pointer for the root. */
export function formatError(file: string, error: ConfigError, out: Pick<Output, 'color'>): string {
  const where = error.pointer === '' ? '' : `${error.pointer} `;
  return `${file}:${error.line}:${error.column} ${out.color.red('error')} ${where}${error.message}`;
}
