import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LoadRunConfig, LoadRunResult } from './load-runner.js';

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));

/** Runs one load run in a separate node process (load-runner.js) and returns its figures. */
export function runLoadProcess(config: LoadRunConfig): Promise<LoadRunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [here('./load-runner.js'), JSON.stringify(config)], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`the load generator exited with ${code}`));
      try {
        resolve(JSON.parse(out) as LoadRunResult);
      } catch (error) {
        reject(new Error(`the load generator printed no result: ${out.slice(0, 200)}`, { cause: error }));
      }
    });
  });
}

export interface CeilingServer {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/** Starts the raw node:http ceiling server in its own process (or another script of this folder, with its arguments). */
export async function startCeilingServer(nodeArgs: readonly string[] = [], script = './ceiling-server.js', args: readonly string[] = []): Promise<CeilingServer> {
  const started = await startBenchProcess(script, args, nodeArgs);
  return { url: `http://127.0.0.1:${(started.ready as { port: number }).port}`, pid: started.pid, stop: () => started.stop() };
}

/**
 * Starts a script of this folder in its own process; resolves with the first JSON line it
 * prints (its "ready" line). `stop()` sends SIGTERM and waits for the exit.
 */
export function startBenchProcess(script: string, args: readonly string[] = [], nodeArgs: readonly string[] = []): Promise<{ ready: unknown; pid: number; stop(): Promise<void> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, here(script), ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const line = out.split('\n').find((text) => text.startsWith('{'));
      if (!line) return;
      resolve({
        ready: JSON.parse(line) as unknown,
        pid: child.pid!,
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
        },
      });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}
