import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, svcBin } from './repo.js';

/** The real `svc` binary runs the build in packages/cli/dist, which `npm test` makes first. */
const builtMain = join(repoRoot, 'packages', 'cli', 'dist', 'main.js');

export interface RunSvcOptions {
  /** Working directory of the process; default: the test process's. */
  readonly cwd?: string;
  /** Added to the environment; `undefined` removes a variable. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Written to stdin, which is then closed (it is closed at once without it). */
  readonly input?: string;
  /** The process is killed and the promise rejected after this long; default 15 s. */
  readonly timeoutMs?: number;
}

export interface RunSvcResult {
  /** The exit code; null only if a signal ended the process. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `node packages/cli/bin/svc.js ...args` without a shell and collects its output.
 * The environment is the test's, minus SVC_* variables (a developer's real credentials or
 * server address must not leak into a test) and colours (NO_COLOR is set), plus `env`.
 */
export function runSvc(args: readonly string[], options: RunSvcOptions = {}): Promise<RunSvcResult> {
  if (!existsSync(builtMain)) {
    return Promise.reject(new Error(`${builtMain} is missing: build first with \`npx tsc -b tsconfig.build.json\` (npm test does)`));
  }
  const timeoutMs = options.timeoutMs ?? 15_000;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [svcBin, ...args], {
      cwd: options.cwd,
      env: testEnvironment(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
      shell: false,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`svc ${args.join(' ')} did not finish within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.on('error', () => {
      // The process may exit without reading its input; that is its business.
    });
    child.stdin.end(options.input);
  });
}

/** The environment a test's `svc` runs with: the test's, minus SVC_* variables and colours, plus `extra`. */
export function testEnvironment(extra: RunSvcOptions['env']): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!name.startsWith('SVC_') && name !== 'FORCE_COLOR') env[name] = value;
  }
  env['NO_COLOR'] = '1';
  for (const [name, value] of Object.entries(extra ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}
