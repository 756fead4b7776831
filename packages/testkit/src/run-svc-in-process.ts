import { PassThrough, Readable } from 'node:stream';
import { testEnvironment, type RunSvcOptions, type RunSvcResult } from './run-svc.js';

/**
 * Runs `svc ...args` in this process: the CLI's own `main()` with streams, environment and
 * working directory of its own (the `Io` every command takes), exactly what the binary runs
 * but for its last lines (flush, then exit with the code). No Node process is started, so a
 * suite that makes many CLI calls to set up or check what it tests stays quick on a loaded
 * machine. The environment is the one `runSvc` gives a process. What only the binary
 * does is tested through it (packages/cli/test/backend/svc-binary.test.ts).
 */
export async function runSvcInProcess(args: readonly string[], options: RunSvcOptions = {}): Promise<RunSvcResult> {
  const { main } = await import('@svc/cli');
  const stdout = collected();
  const stderr = collected();
  const stdin = Readable.from(options.input === undefined ? [] : [Buffer.from(options.input)]);
  const timeoutMs = options.timeoutMs ?? 15_000;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`svc ${args.join(' ')} did not finish within ${timeoutMs} ms\nstdout: ${stdout.text()}\nstderr: ${stderr.text()}`)), timeoutMs);
  });
  let code: number;
  try {
    code = await Promise.race([main(args, { stdin, stdout: stdout.stream, stderr: stderr.stream, env: testEnvironment(options.env), cwd: options.cwd ?? process.cwd() }), timedOut]);
  } catch (error) {
    // What would end the binary with an uncaught exception: exit code 1, the stack on stderr.
    if (error instanceof Error && error.message.startsWith(`svc ${args.join(' ')} did not finish`)) throw error;
    stderr.stream.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    code = 1;
  } finally {
    clearTimeout(timer);
  }
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

function collected(): { stream: PassThrough; text(): string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}
