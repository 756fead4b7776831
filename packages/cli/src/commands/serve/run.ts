import { ServiceError } from '@svc/protocol';
import type { ServerOptions } from '@svc/server';
import type { ContextOf } from '../../command.js';
import type { serveCommand } from './commands.js';

/** The parsed command line has one key per flag of the server's table (`flagKey`). */
export async function runServe({ options: flags, io, out }: ContextOf<typeof serveCommand>): Promise<number> {
  // Loaded here so that other commands start without the server's dependencies.
  const server = await import('@svc/server');
  let options: ServerOptions;
  try {
    options = server.resolveServeOptions(flags, io.env, io.cwd);
  } catch (error) {
    if (error instanceof server.ServeFlagError) throw new ServiceError('usage', error.message);
    throw error;
  }
  // Listen for signals before starting, so that one arriving at any moment is honoured.
  const signalled = untilSignalled();
  const running = await server.startServer(options);

  const ready = { event: 'listening', url: running.url, baseUrl: running.baseUrl, formsUrl: running.formsUrl };
  out.result(running.adminToken ? { ...ready, adminToken: running.adminToken } : ready, () => {
    const lines = [`listening on ${running.url}`];
    if (running.adminToken) {
      lines.push(
        '',
        'Created an admin token. It is shown only this once; keep it somewhere safe:',
        `  ${running.adminToken}`,
        'To choose the admin token yourself instead, start with SVC_BOOTSTRAP_TOKEN=<token> (docs/server.md).',
      );
    }
    return lines.join('\n');
  });

  await signalled;
  out.note('shutting down: finishing requests and deliveries in flight');
  await running.close();
  return 0;
}

function untilSignalled(): Promise<void> {
  return new Promise((resolveSignal) => {
    const stop = (): void => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      // A second signal while draining ends the process at once.
      process.once('SIGINT', () => process.exit(130));
      resolveSignal();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}
