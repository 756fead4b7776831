// Runs the real `svc` binary (packages/cli/dist): build first.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestEnvironment, selectBackend, startSvc, svcBin, type TestEnvironment } from '@svc/testkit';

const backend = await selectBackend();

function runToExit(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [svcBin, ...args], { env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe.runIf(backend.available)(`the first start on ${backend.name}`, () => {
  let environment: TestEnvironment;
  let blocker: Server;
  let takenPort: number;

  beforeAll(async () => {
    environment = await createTestEnvironment();
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    takenPort = (blocker.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => blocker?.close(resolve));
    await environment?.cleanup();
  });

  it('creates no admin token when it cannot listen, and the next start prints one', async () => {
    const failed = await runToExit(['serve', '--json', '--log-level', 'silent', '--port', String(takenPort), ...environment.serverArgs]);
    expect(failed.code).not.toBe(0);
    expect(failed.stdout).not.toMatch(/svc_/);

    const server = await startSvc({ args: environment.serverArgs });
    try {
      expect(server.adminToken).toMatch(/^svc_/);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
