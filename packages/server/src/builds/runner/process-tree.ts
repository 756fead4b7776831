import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { readPaced } from './paced-reader.js';

export interface ProcessTreeOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  /** The whole environment of the process: nothing is inherited. */
  readonly env: Readonly<Record<string, string>>;
  /** Epoch milliseconds after which the tree is killed. */
  readonly deadline: number;
  readonly signal: AbortSignal;
  onOutput(chunk: string): void;
}

export type ProcessTreeOutcome =
  | { readonly kind: 'exited'; readonly code: number | null; readonly signal: NodeJS.Signals | null }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'canceled' }
  | { readonly kind: 'spawn_failed'; readonly message: string };

/**
 * Runs a command as the leader of its own process group and, when it exits, times out or is
 * canceled, kills the group and every descendant still found under it with SIGKILL, so a
 * build leaves no process behind (a grandchild that left the group with setsid is found
 * through /proc while its parent lives; inside bubblewrap the pid namespace ends them all).
 */
export function runProcessTree(options: ProcessTreeOptions): Promise<ProcessTreeOutcome> {
  return new Promise((resolve) => {
    if (options.signal.aborted) {
      resolve({ kind: 'canceled' });
      return;
    }
    const child = spawn(options.command, [...options.args], {
      cwd: options.cwd,
      env: { ...options.env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stopped: 'timeout' | 'canceled' | null = null;
    let exited = false;
    let settled = false;
    const pid = child.pid;

    const killTree = (): void => {
      if (pid === undefined) return;
      for (const descendant of descendantPids(pid)) signalQuietly(descendant);
      signalQuietly(-pid);
    };
    const stop = (why: 'timeout' | 'canceled'): void => {
      if (stopped !== null || exited) return;
      stopped = why;
      killTree();
    };
    const timer = setTimeout(() => stop('timeout'), Math.max(0, options.deadline - Date.now()));
    const onAbort = (): void => stop('canceled');
    options.signal.addEventListener('abort', onAbort, { once: true });

    const finish = (outcome: ProcessTreeOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };

    // Read coarsely, not at every write: a build that prints without end must not hold the event loop.
    readPaced(child.stdout, (text) => options.onOutput(text));
    readPaced(child.stderr, (text) => options.onOutput(text));
    child.on('error', (error) => finish({ kind: 'spawn_failed', message: error.message }));
    child.on('exit', (code, signal) => {
      exited = true;
      // Whatever the leader left running (a daemon, a watcher) goes with it; its open
      // pipes would otherwise keep `close` from ever firing.
      killTree();
      child.on('close', () => {
        if (stopped !== null) finish({ kind: stopped });
        else finish({ kind: 'exited', code, signal });
      });
    });
  });
}

function signalQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/** Every process below `rootPid`, read from /proc (Linux); empty where /proc is absent. */
export function descendantPids(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // The command name is in parentheses and may hold spaces; fields after it are fixed.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const parent = Number(fields[1]);
    const list = children.get(parent) ?? [];
    list.push(Number(entry));
    children.set(parent, list);
  }
  const found: number[] = [];
  const pending = [rootPid];
  while (pending.length > 0) {
    const next = pending.pop()!;
    for (const child of children.get(next) ?? []) {
      found.push(child);
      pending.push(child);
    }
  }
  return found;
}
