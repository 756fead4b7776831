import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { svcBin } from './repo.js';

/** A running `svc serve --json --port 0` child process. */
export interface SvcProcess {
  /** Where it listens, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** The admin token a first start printed, if it printed one. */
  readonly adminToken: string | undefined;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Everything the process wrote so far (the last 256 KiB of stderr, its log). */
  output(): { stdout: string; stderr: string };
  stderr(): string;
  /** True while the process has not exited. */
  alive(): boolean;
  /** SIGTERM, then the exit code once the process has drained and exited. */
  stop(): Promise<number | null>;
  /** SIGKILL: no chance to clean up. */
  kill(): Promise<void>;
}

export interface StartOptions {
  /** Flags after `serve` (the backend's flags, limits, delivery settings…). */
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** Flags for node itself, e.g. `--cpu-prof`. */
  readonly nodeArgs?: readonly string[];
  readonly logLevel?: string;
  readonly readyTimeoutMs?: number;
}

const keptLog = 256 * 1024;

/** Starts the real `svc serve` (packages/cli/dist: build first) and resolves once it prints its listening line. */
export function startSvc(options: StartOptions = {}): Promise<SvcProcess> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), svcBin, 'serve', '--json', '--port', '0', '--log-level', options.logLevel ?? 'warn', ...(options.args ?? [])], {
    cwd: options.cwd,
    env: { ...process.env, CI: 'true', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout = (stdout + chunk).slice(-keptLog)));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-keptLog)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const alive = (): boolean => child.exitCode === null && child.signalCode === null;

  return new Promise<SvcProcess>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`svc serve did not become ready in time\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.readyTimeoutMs ?? 30_000);
    const onData = (): void => {
      const line = stdout.split('\n').find((text) => text.includes('"event":"listening"'));
      if (!line) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      const ready = JSON.parse(line) as { url: string; adminToken?: string };
      resolve({
        url: ready.url,
        adminToken: ready.adminToken,
        pid: child.pid!,
        child,
        output: () => ({ stdout, stderr }),
        stderr: () => stderr,
        alive,
        stop: async () => {
          if (alive()) child.kill('SIGTERM');
          return exited;
        },
        kill: async () => {
          if (alive()) child.kill('SIGKILL');
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

/** Resident set size of a process, in bytes (Linux: /proc/PID/status), or null when unknown. */
export async function residentBytes(pid: number): Promise<number | null> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** Samples a process's RSS every `intervalMs` until stopped; returns the largest seen. */
export function sampleResident(pid: number, intervalMs = 100): { stop(): Promise<number | null> } {
  let peak: number | null = null;
  let pending: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    pending = residentBytes(pid).then((bytes) => {
      if (bytes !== null && (peak === null || bytes > peak)) peak = bytes;
    });
  }, intervalMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await pending;
      const last = await residentBytes(pid);
      if (last !== null && (peak === null || last > peak)) peak = last;
      return peak;
    },
  };
}
