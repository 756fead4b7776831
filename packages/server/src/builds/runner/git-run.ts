import { LogRing } from './log-ring.js';
import { lowPriority } from './low-priority.js';
import { runProcessTree } from './process-tree.js';

export interface GitRunOptions {
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly deadline: number;
  readonly signal: AbortSignal;
  /** Also given git's output, for the build log. */
  readonly onOutput?: (chunk: string) => void;
  /** Extra variables for this command only (GIT_INDEX_FILE). */
  readonly extraEnv?: Readonly<Record<string, string>>;
}

export type GitRunResult =
  | { readonly kind: 'ok'; readonly output: string }
  | { readonly kind: 'failed'; readonly output: string }
  | { readonly kind: 'timeout' | 'canceled' };

/** Runs `git` with a complete, given environment, at the lowest priority; its output kept up to 64 KiB. */
export async function runGit(options: GitRunOptions): Promise<GitRunResult> {
  const output = new LogRing(64 * 1024);
  const [command, ...args] = [...lowPriority(), 'git', ...options.args] as [string, ...string[]];
  const outcome = await runProcessTree({
    command,
    args,
    cwd: options.cwd,
    env: { ...options.env, ...options.extraEnv },
    deadline: options.deadline,
    signal: options.signal,
    onOutput: (chunk) => {
      output.append(chunk);
      options.onOutput?.(chunk);
    },
  });
  if (outcome.kind === 'timeout' || outcome.kind === 'canceled') return { kind: outcome.kind };
  if (outcome.kind === 'spawn_failed') return { kind: 'failed', output: `git could not start: ${outcome.message}` };
  return { kind: outcome.code === 0 ? 'ok' : 'failed', output: output.text() };
}
