import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';

const run = promisify(execFile);

/**
 * A Redis and a PostgreSQL of a test's own, on ports of their own, for the tests and
 * reliability scenarios that stop, freeze or restart them: never the shared servers the
 * other suites use at the same time.
 */

/** A free TCP port on 127.0.0.1 (free when asked; taken by the caller right after). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export interface PrivateRedis {
  readonly url: string;
  readonly pid: number;
  /** SIGSTOP: the server keeps its connections and answers nothing. */
  freeze(): void;
  /** SIGCONT. */
  thaw(): void;
  /** SIGKILL, then starts it again on the same port when `restart` is called. */
  kill(): Promise<void>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Null when `redis-server` can be started here, else why not. */
export function privateRedisProblem(): string | null {
  return findOnPath('redis-server') ? null : 'redis-server is not installed (apt-get install redis-server)';
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess = await launchRedis(port, url);
  const stopChild = async (signal: NodeJS.Signals): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGCONT');
    child.kill(signal);
    await exited;
  };
  return {
    url,
    get pid() {
      return child.pid ?? 0;
    },
    freeze: () => void child.kill('SIGSTOP'),
    thaw: () => void child.kill('SIGCONT'),
    kill: () => stopChild('SIGKILL'),
    restart: async () => {
      child = await launchRedis(port, url);
    },
    stop: () => stopChild('SIGKILL'),
  };
}

async function launchRedis(port: number, url: string): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  for (let tries = 0; tries < 100; tries++) {
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.ping();
      return child;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      client.disconnect();
    }
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server did not answer on port ${port}`);
}

export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/svc`. */
  readonly url: string;
  /** `pg_ctl stop` in the given mode (`immediate` is a crash, `fast` a clean shutdown). */
  stop(mode: 'immediate' | 'fast'): Promise<void>;
  start(): Promise<void>;
  /** Stops the cluster and removes its files. */
  remove(): Promise<void>;
}

/** Null when a PostgreSQL cluster can be made here (initdb and pg_ctl of the Debian package), else why not. */
export function privatePostgresProblem(): string | null {
  return postgresBin() ? null : 'initdb and pg_ctl are not installed (apt-get install postgresql)';
}

/**
 * A new PostgreSQL cluster in a temporary directory (`initdb`), started on a free port with
 * a database `svc`. As root it runs as the `postgres` user, as PostgreSQL requires.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error(privatePostgresProblem() ?? 'no PostgreSQL');
  const directory = await mkdtemp(join(tmpdir(), 'svc-pg-'));
  const data = join(directory, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    await chown(directory, Number(stdout.trim()), Number(group.trim()));
  }
  const pgRun = (program: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, program), ...args]) : run(join(bin, program), args);
  const port = await freePort();
  await pgRun('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const options = `-p ${port} -k ${directory} -c listen_addresses=127.0.0.1 -c fsync=on -c max_connections=200`;
  const start = async (): Promise<void> => {
    await pgRun('pg_ctl', ['-D', data, '-o', options, '-l', join(directory, 'log'), '-w', '-t', '60', 'start']);
  };
  await start();
  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query('CREATE DATABASE svc');
  await admin.end();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/svc`,
    stop: async (mode) => {
      await pgRun('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
    },
    start,
    remove: async () => {
      await pgRun('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      await rm(directory, { recursive: true, force: true });
    },
  };
}

function postgresBin(): string | null {
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql').sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const bin = join('/usr/lib/postgresql', version, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) return bin;
  }
  const initdb = findOnPath('initdb');
  return initdb && findOnPath('pg_ctl') ? join(initdb, '..') : null;
}

function findOnPath(program: string): string | null {
  for (const directory of (process.env['PATH'] ?? '').split(':')) {
    const path = join(directory, program);
    if (directory !== '' && existsSync(path)) return path;
  }
  return null;
}
