import { spawn } from 'node:child_process';
import { existsSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { BuildError } from './build-error.js';
import { sandboxEgressSocket } from './egress-forwarder.js';

export type SandboxChoice = 'auto' | 'bwrap' | 'none';

/** Where bubblewrap is expected (Debian's `bubblewrap` package). */
export const bubblewrapPath = '/usr/bin/bwrap';

/** Where the checkout and the home folder appear inside the sandbox. */
export const sandboxCheckout = '/build/src';
export const sandboxHome = '/build/home';

/**
 * The parts of /etc a build may read: name resolution, TLS roots, the user table, the
 * dynamic linker's cache, Debian's alternatives symlinks and the time zone. Nothing else of
 * /etc (no machine's keys, no service configuration).
 */
const etcEntries = ['resolv.conf', 'hosts', 'host.conf', 'nsswitch.conf', 'gai.conf', 'ssl', 'ca-certificates', 'ca-certificates.conf', 'passwd', 'group', 'localtime', 'timezone', 'alternatives', 'ld.so.cache', 'ld.so.conf', 'ld.so.conf.d', 'mime.types'];

/** Top-level folders that are often symlinks into /usr (merged /usr) or hold libraries. */
const systemTops = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/** The folders a build sees read-only: /usr, the system top folders, and where node lives. */
export function readOnlyRoots(nodeExecutable: string = process.execPath): string[] {
  const roots = ['/usr'];
  for (const top of systemTops) if (existsSync(top) && !lstatSync(top).isSymbolicLink()) roots.push(top);
  const prefix = dirname(dirname(realpathOrSelf(nodeExecutable)));
  if (!roots.some((root) => isInside(prefix, root))) roots.push(prefix);
  return roots;
}

/**
 * A step's network: `none` (a network namespace with only its own loopback), `egress` (the
 * same, with the socket of the server's egress proxy bound in at {@link sandboxEgressSocket}:
 * the install step) or `host` (the host's network: `--build-network`'s build step).
 */
export type SandboxNetwork = { readonly kind: 'none' } | { readonly kind: 'egress'; readonly socketPath: string } | { readonly kind: 'host' };

export interface SandboxPaths {
  /** The checkout on the host, writable inside at {@link sandboxCheckout}. */
  readonly checkoutDir: string;
  /** The build's home on the host, writable inside at {@link sandboxHome}. */
  readonly homeDir: string;
  /** The build's temporary folder on the host, writable inside at /tmp (on disk, so within --build-disk). */
  readonly tmpDir: string;
  readonly network: SandboxNetwork;
}

/**
 * The bubblewrap command line that runs a build: new namespaces for everything (users,
 * processes, IPC, hostname, cgroups, the network unless the step has the host's), all
 * capabilities dropped, its own session (no terminal injection), killed when the server
 * dies; read-only /usr and system folders, a few files of /etc, node's install folder; a
 * private /proc and /dev; the checkout, a home folder and /tmp writable, all three folders
 * of the build; for the install step, the egress proxy's socket. Nothing else of the host
 * exists inside: not the data directory, not /root, /home, /var or /run.
 */
export function bubblewrapArgs(paths: SandboxPaths, roots: readonly string[] = readOnlyRoots()): string[] {
  const args = ['--unshare-all', ...(paths.network.kind === 'host' ? ['--share-net'] : []), '--die-with-parent', '--new-session', '--cap-drop', 'ALL', '--hostname', 'build'];
  for (const root of roots) args.push('--ro-bind', root, root);
  for (const top of systemTops) {
    if (existsSync(top) && lstatSync(top).isSymbolicLink()) args.push('--symlink', readlinkSync(top), top);
  }
  for (const entry of etcEntries) args.push('--ro-bind-try', `/etc/${entry}`, `/etc/${entry}`);
  args.push('--proc', '/proc', '--dev', '/dev');
  args.push('--bind', paths.checkoutDir, sandboxCheckout, '--bind', paths.homeDir, sandboxHome, '--bind', paths.tmpDir, '/tmp');
  if (paths.network.kind === 'egress') args.push('--bind', paths.network.socketPath, sandboxEgressSocket);
  args.push('--chdir', sandboxCheckout);
  return args;
}

/**
 * Refuses to sandbox a build whose private folders (the data directory, the work folder)
 * would be visible through a read-only root, such as a data directory under /usr.
 */
export function assertHidden(privateDirs: readonly string[], roots: readonly string[] = readOnlyRoots()): void {
  for (const dir of privateDirs) {
    const absolute = resolve(dir);
    const root = roots.find((candidate) => isInside(absolute, candidate));
    if (root !== undefined) throw new BuildError('sandbox_unavailable', `${absolute} is inside ${root}, which builds can read; move the data directory elsewhere`);
  }
}

function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
}

const probes = new Map<string, Promise<string | null>>();

/**
 * Whether bubblewrap works on this host (installed, and allowed to create namespaces),
 * tried once per process: null when it does, else why not.
 */
export function probeBubblewrap(bwrap: string = bubblewrapPath): Promise<string | null> {
  let probe = probes.get(bwrap);
  if (probe === undefined) {
    probe = runProbe(bwrap);
    probes.set(bwrap, probe);
  }
  return probe;
}

function runProbe(bwrap: string): Promise<string | null> {
  if (!existsSync(bwrap)) return Promise.resolve(`${bwrap} is not installed`);
  const args = ['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL'];
  for (const root of readOnlyRoots()) args.push('--ro-bind', root, root);
  for (const top of systemTops) if (existsSync(top) && lstatSync(top).isSymbolicLink()) args.push('--symlink', readlinkSync(top), top);
  args.push('--proc', '/proc', '--dev', '/dev', '--', 'true');
  return new Promise((resolvePromise) => {
    let output = '';
    const child = spawn(bwrap, args, { env: { PATH: '/usr/bin:/bin' }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', (error) => resolvePromise(`${bwrap} could not start: ${error.message}`));
    child.on('close', (code) => resolvePromise(code === 0 ? null : `${bwrap} does not work here: ${output.trim().slice(0, 300) || `exit code ${code}`}`));
  });
}

/**
 * Whether builds run in bubblewrap: `none` only when chosen; `auto` and `bwrap` need it to
 * work, else the build is refused with both ways out named.
 */
export async function resolveSandbox(choice: SandboxChoice): Promise<'bwrap' | 'none'> {
  if (choice === 'none') return 'none';
  const problem = await probeBubblewrap();
  if (problem === null) return 'bwrap';
  throw new BuildError('sandbox_unavailable', `builds run in a bubblewrap sandbox, but ${problem}: install bubblewrap (Debian: apt-get install bubblewrap), or start the server with --build-sandbox none to build without isolation (builds can then read the server's files; docs/hosting.md)`);
}
