import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Responder } from './receiver.js';
import { createTestEnvironment, type TestEnvironment } from './selection.js';
import { startSvc, type SvcProcess } from './svc-process.js';
import { runSvc, type RunSvcResult } from './run-svc.js';
import { runSvcInProcess } from './run-svc-in-process.js';

/** What one `svc` run gave, with its stdout read as the one JSON document it must be. */
export interface CliResult extends RunSvcResult {
  json<T = Record<string, unknown>>(): T;
}

export interface RunOptions {
  readonly cwd?: string;
  /** The token to send (SVC_TOKEN); default the admin token; null: none at all. */
  readonly token?: string | null;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly input?: string;
  /** Run the real binary in a process of its own rather than the CLI's `main()` in this one (run-svc-in-process.ts). */
  readonly process?: boolean;
}

/** A real `svc serve` on this file's backend, and the CLI pointed at it (in this process, or the real binary). */
export interface CliTestServer {
  readonly environment: TestEnvironment;
  readonly server: SvcProcess;
  readonly url: string;
  readonly adminToken: string;
  /** A config dir of this server's tests (SVC_CONFIG_DIR), so no real credentials are used. */
  readonly configDir: string;
  svc(args: readonly string[], options?: RunOptions): Promise<CliResult>;
  /** A new empty directory, with the given files. */
  directory(files?: Record<string, string>): Promise<string>;
  stop(): Promise<void>;
}

export async function startCliTestServer(extraArgs: readonly string[] = []): Promise<CliTestServer> {
  const environment = await createTestEnvironment();
  const adminToken = `svc_test_${randomBytes(16).toString('hex')}`;
  const server = await startSvc({ args: [...environment.serverArgs, ...extraArgs], env: { SVC_BOOTSTRAP_TOKEN: adminToken } });
  const root = await mkdtemp(join(tmpdir(), 'svc-cli-'));
  const configDir = join(root, 'config');
  return {
    environment,
    server,
    url: server.url,
    adminToken,
    configDir,
    svc: async (args, options = {}) => {
      const token = options.token === undefined ? adminToken : options.token;
      const result = await (options.process ? runSvc : runSvcInProcess)(args, {
        cwd: options.cwd ?? root,
        env: { SVC_API_URL: server.url, SVC_TOKEN: token ?? undefined, SVC_CONFIG_DIR: configDir, ...options.env },
        ...(options.input === undefined ? {} : { input: options.input }),
      });
      return withJson(result);
    },
    directory: async (files = {}) => {
      const directory = await mkdtemp(join(root, 'project-'));
      for (const [name, text] of Object.entries(files)) {
        await mkdir(join(directory, name, '..'), { recursive: true });
        await writeFile(join(directory, name), text);
      }
      return directory;
    },
    stop: async () => {
      const code = await server.stop();
      await environment.cleanup();
      await rm(root, { recursive: true, force: true });
      if (code !== 0) throw new Error(`svc serve exited with ${code}\n${server.output().stderr}`);
    },
  };
}

export function withJson(result: RunSvcResult): CliResult {
  return {
    ...result,
    json<T>() {
      const lines = result.stdout.trimEnd().split('\n');
      if (lines.length !== 1 || !result.stdout.endsWith('\n')) {
        throw new Error(`stdout is not exactly one JSON document:\n${result.stdout}\nstderr: ${result.stderr}`);
      }
      return JSON.parse(lines[0]!) as T;
    },
  };
}

/** A service.json text for a project, with anything extra merged in. */
export function serviceJson(workspace: string, project: string, extra: Record<string, unknown> = {}): string {
  return `${JSON.stringify({ workspace, project, framework: 'static', environments: { production: { branch: 'main' } }, ...extra }, null, 2)}\n`;
}

/** Sets up a project through the CLI (init with flags, then push of `extra`); returns its directory. */
export async function createProject(cli: CliTestServer, workspace: string, project: string, extra: Record<string, unknown> = {}, token?: string): Promise<string> {
  const directory = await cli.directory();
  const init = await cli.svc(['init', '--workspace', workspace, '--project', project, '--framework', 'static', '--branch', 'main', '--yes'], {
    cwd: directory,
    ...(token === undefined ? {} : { token }),
  });
  if (init.code !== 0) throw new Error(`svc init failed: ${init.stderr}`);
  if (Object.keys(extra).length > 0) {
    await writeFile(join(directory, 'service.json'), serviceJson(workspace, project, extra));
    const push = await cli.svc(['push'], { cwd: directory, ...(token === undefined ? {} : { token }) });
    if (push.code !== 0) throw new Error(`svc push failed: ${push.stderr}`);
  }
  return directory;
}

/** How the CLI tests' receivers answer: 500 `nope` on `/fail`, else 200 `thanks`. */
export const failOnFailPath: Responder = (request) => (request.path === '/fail' ? { status: 500, headers: { 'content-type': 'text/plain' }, body: 'nope' } : { status: 200, headers: { 'content-type': 'text/plain' }, body: 'thanks' });
