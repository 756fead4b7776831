import { spawn, spawnSync } from 'node:child_process';
import { svcBin } from './repo.js';

/** Whether util-linux `script` can give `svc` a pseudo-terminal here. */
export const terminalAvailable = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;

export interface PromptAnswer {
  /** Text of the question to wait for (in the output with escape sequences removed). */
  readonly question: string;
  /** What to type once it is shown: `\r` is Enter, `\u001b[B` the down arrow, `\u0003` Ctrl-C. */
  readonly keys: string;
}

export interface TerminalResult {
  readonly code: number | null;
  /** Everything the terminal showed (stdout and stderr), escape sequences removed. */
  readonly screen: string;
  /** The same bytes as the terminal got them, escape sequences and all. */
  readonly raw: string;
}

/** Terminal escape sequences (cursor moves, colours) and carriage returns. */
const escape = String.fromCharCode(27);
const escapes = new RegExp(`${escape}\\[[0-9;?]*[A-Za-z]|${escape}[78=>]|\\r`, 'g');

/**
 * Runs the real `svc` on a pseudo-terminal (util-linux `script`, 120 columns), so that
 * stdin is a TTY and it may ask questions. Each answer is typed when its question appears:
 * nothing waits on a clock. CI is removed from the environment (it would turn prompts off).
 */
export function runSvcOnTerminal(
  args: readonly string[],
  options: { cwd: string; env: Readonly<Record<string, string | undefined>>; answers: readonly PromptAnswer[]; timeoutMs?: number },
): Promise<TerminalResult> {
  const quoted = [process.execPath, svcBin, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ');
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('SVC_') && name !== 'CI') env[name] = value;
  for (const [name, value] of Object.entries(options.env)) if (value !== undefined) env[name] = value;
  env['NO_COLOR'] = '1';
  env['TERM'] = 'xterm';

  const child = spawn('script', ['-qec', `stty cols 120 rows 40; exec ${quoted}`, '/dev/null'], { cwd: options.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let screen = '';
  let raw = '';
  let searchFrom = 0;
  let next = 0;
  const onOutput = (chunk: Buffer): void => {
    raw += chunk.toString('utf8');
    screen += chunk.toString('utf8').replace(escapes, '');
    const answer = options.answers[next];
    if (answer === undefined) return;
    const at = screen.indexOf(answer.question, searchFrom);
    if (at === -1) return;
    next += 1;
    searchFrom = screen.length;
    child.stdin.write(answer.keys);
  };
  child.stdout.on('data', onOutput);
  child.stderr.on('data', onOutput);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`svc ${args.join(' ')} on a terminal did not finish; it showed:\n${screen}`));
    }, options.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (next < options.answers.length) reject(new Error(`svc never asked "${options.answers[next]!.question}"; it showed:\n${screen}`));
      else resolve({ code, screen, raw });
    });
  });
}
