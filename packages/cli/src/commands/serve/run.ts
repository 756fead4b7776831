import { ServiceError } from '@svc/protocol';
import type { RunningServer, ServerOptions } from '@svc/server';
import type { Io } from '../../io.js';
import type { ContextOf } from '../../command.js';
import type { serveCommand } from './commands.js';

/** The parsed command line has one key per flag of the server's table (`flagKey`). */
export async function runServe({ options: flags, io, out }: ContextOf<typeof serveCommand>): Promise<number> {
  // Loaded here so that other commands start without the server's dependencies.
  const server = await import('@svc/server');
  let options: ServerOptions;
  try {
    options = { ...server.resolveServeOptions(flags, io.env, io.cwd), ...logFormatFor(io, out.json) };
  } catch (error) {
    if (error instanceof server.ServeFlagError) throw new ServiceError('usage', error.message);
    throw error;
  }
  // Listen for signals before starting, so that one arriving at any moment is honoured.
  const signalled = untilSignalled();
  const running = await server.startServer(options);

  const ready = { event: 'listening', url: running.url, baseUrl: running.baseUrl, formsUrl: running.formsUrl };
  out.result(running.adminToken ? { ...ready, adminToken: running.adminToken } : ready, () => banner(running));

  await signalled;
  out.note('shutting down: finishing requests and deliveries in flight');
  await running.close();
  return 0;
}

/** On a terminal without --json, log lines for people; else JSON records, one a line (docs/server.md#logs). */
function logFormatFor(io: Io, json: boolean): Pick<ServerOptions, 'logFormat' | 'logColors'> {
  if (json || !io.stderr.isTTY) return { logFormat: 'json', logColors: false };
  return { logFormat: 'lines', logColors: io.env['NO_COLOR'] === undefined && io.env['TERM'] !== 'dumb' };
}

/**
 * What a person reads once the start-up logs are done: where the server listens, where to
 * sign in, and a first start's admin token set apart from every log line around it.
 */
export function banner(running: Pick<RunningServer, 'url' | 'baseUrl' | 'adminToken'>): string {
  const lines = [`listening on ${running.url}`, '', `Settings area: ${running.baseUrl}/settings`, `  Sign in with \`svc open\` (after \`svc login\`), or paste a token at ${running.baseUrl}/login.`];
  if (running.adminToken) {
    const rule = '='.repeat(78);
    lines.push(
      '',
      rule,
      'Created an admin token. It is shown only this once; keep it somewhere safe:',
      '',
      `    ${running.adminToken}`,
      '',
      'Use it from another terminal:',
      `    svc login --token ${running.adminToken} --api ${running.baseUrl}`,
      '    svc open',
      'To choose the admin token yourself instead, start with SVC_BOOTSTRAP_TOKEN=<token> (docs/server.md).',
      rule,
    );
  }
  return lines.join('\n');
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
