import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The real `svc` binary; `npm test` builds dist/ before the tests run. */
export const svcBin = fileURLToPath(new URL('../../packages/cli/bin/svc.js', import.meta.url));

export interface SvcProcess {
  readonly url: string;
  readonly adminToken: string | undefined;
  readonly child: ChildProcess;
  /** Everything the process wrote so far. */
  output(): { stdout: string; stderr: string };
  /** SIGTERM, then the exit code once the process has drained and exited. */
  stop(): Promise<number | null>;
  /** SIGKILL: the process gets no chance to clean up. */
  kill(): Promise<void>;
}

export interface StartOptions {
  /** Flags after `serve` (the test environment's backend flags, limits…). */
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  readonly timeoutMs?: number;
}

/** Starts `svc serve --json --port 0 …` and resolves once it prints its listening line. */
export function startSvc(options: StartOptions = {}): Promise<SvcProcess> {
  const child = spawn(process.execPath, [svcBin, 'serve', '--json', '--port', '0', '--log-level', 'warn', ...(options.args ?? [])], {
    cwd: options.cwd,
    env: { ...process.env, CI: 'true', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  return new Promise<SvcProcess>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`svc serve did not become ready in time\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 20_000);
    const onData = (): void => {
      const line = stdout.split('\n').find((text) => text.includes('"event":"listening"'));
      if (!line) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      const ready = JSON.parse(line) as { url: string; adminToken?: string };
      resolve({
        url: ready.url,
        adminToken: ready.adminToken,
        child,
        output: () => ({ stdout, stderr }),
        stop: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          return exited;
        },
        kill: async () => {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        },
      });
    };
    child.stdout.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`svc serve exited with ${code} before it was ready\nstdout: ${stdout}\nstderr: ${stderr}`));
    });
  });
}
