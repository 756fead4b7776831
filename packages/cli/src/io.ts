import type { Readable, Writable } from 'node:stream';

/** Everything a command may touch of the outside world; tests pass their own. */
export interface Io {
  readonly stdin: Readable & { isTTY?: boolean };
  readonly stdout: Writable & { isTTY?: boolean };
  readonly stderr: Writable & { isTTY?: boolean };
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

export function processIo(): Io {
  return { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}

/** No command prompts when stdin is not a TTY, `--yes` is given or CI is set (docs/cli.md). */
export function canPrompt(io: Io, yes: boolean | undefined): boolean {
  const ci = io.env['CI'];
  return Boolean(io.stdin.isTTY) && !yes && (ci === undefined || ci === '' || ci === '0' || ci === 'false');
}
