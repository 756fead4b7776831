import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * A build's memory cap as a cgroup (docs/hosting.md, "Time, processes, memory and priority"):
 * each build gets a cgroup of its own below the server's, with `memory.max` (v2) or
 * `memory.limit_in_bytes` (v1) at `--build-memory` and a process cap of {@link buildPidsMax};
 * every step joins it before it runs, and an OOM kill in it is read back so the build fails
 * saying it ran out of memory. Where no cgroup can be made, builds have node's heap cap only.
 */

/** Processes and threads one build may have at once (`pids.max`). */
export const buildPidsMax = 4096;

/** Where build cgroups can be made: below the server's own cgroup, in v2 or in v1's memory (and pids) hierarchies. */
export type CgroupLayout =
  | { readonly version: 2; readonly parent: string; readonly pids: boolean }
  | { readonly version: 1; readonly memoryParent: string; readonly pidsParent: string | null };

export interface CgroupMount {
  readonly version: 1 | 2;
  /** For v1, the hierarchy's controllers (`memory`, `pids`, …). */
  readonly controllers: readonly string[];
  /** The cgroup this mount shows at its mount point (not `/` inside some containers). */
  readonly root: string;
  readonly mountPoint: string;
}

/** The cgroups of a process, from `/proc/<pid>/cgroup`: controller → path; v2's is under the key `''`. */
export function parseProcCgroup(text: string): Map<string, string> {
  const paths = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^\d+:([^:]*):(.*)$/.exec(line);
    if (!match) continue;
    const [, controllers, path] = match as unknown as [string, string, string];
    if (controllers === '') paths.set('', path);
    else for (const controller of controllers.split(',')) paths.set(controller, path);
  }
  return paths;
}

/** The cgroup file systems mounted, from `/proc/self/mountinfo`. */
export function parseCgroupMounts(mountinfo: string): CgroupMount[] {
  const mounts: CgroupMount[] = [];
  for (const line of mountinfo.split('\n')) {
    const [before, after] = line.split(' - ');
    if (before === undefined || after === undefined) continue;
    const fields = before.split(' ');
    const [type, , superOptions = ''] = after.split(' ');
    const root = unescapeMountField(fields[3] ?? '');
    const mountPoint = unescapeMountField(fields[4] ?? '');
    if (type === 'cgroup2') mounts.push({ version: 2, controllers: [], root, mountPoint });
    else if (type === 'cgroup') mounts.push({ version: 1, controllers: superOptions.split(',').filter((option) => option !== 'rw' && option !== 'ro'), root, mountPoint });
  }
  return mounts;
}

function unescapeMountField(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/** The folder of cgroup `path` under `mount`; null when the mount does not show it. */
export function cgroupFolder(mount: CgroupMount, path: string): string | null {
  const relative = posix.relative(mount.root, path);
  if (relative.startsWith('..') || posix.isAbsolute(relative)) return null;
  return relative === '' ? mount.mountPoint : posix.join(mount.mountPoint, relative);
}

/**
 * The places a build cgroup may go, best first: below the server's v2 cgroup when that one
 * has the memory controller, else below its v1 memory cgroup (and its v1 pids cgroup).
 */
export function cgroupCandidates(procCgroup: string, mountinfo: string): CgroupLayout[] {
  const paths = parseProcCgroup(procCgroup);
  const mounts = parseCgroupMounts(mountinfo);
  const candidates: CgroupLayout[] = [];
  const v2Path = paths.get('');
  const v2Mount = mounts.find((mount) => mount.version === 2);
  const v2Folder = v2Path === undefined || v2Mount === undefined ? null : cgroupFolder(v2Mount, v2Path);
  if (v2Folder !== null) candidates.push({ version: 2, parent: v2Folder, pids: true });
  const v1Folder = (controller: string): string | null => {
    const path = paths.get(controller);
    const mount = mounts.find((candidate) => candidate.version === 1 && candidate.controllers.includes(controller));
    return path === undefined || mount === undefined ? null : cgroupFolder(mount, path);
  };
  const memoryParent = v1Folder('memory');
  if (memoryParent !== null) candidates.push({ version: 1, memoryParent, pidsParent: v1Folder('pids') });
  return candidates;
}

/** The `oom_kill` count of v1's `memory.oom_control` or v2's `memory.events`; null when the kernel does not report it. */
export function parseOomKills(text: string): number | null {
  const match = /^oom_kill (\d+)$/m.exec(text);
  return match ? Number(match[1]) : null;
}

/** `svc-build-<server pid>-<random>`: the pid tells a cgroup whose server is gone (see {@link removeStaleBuildCgroups}). */
export function buildCgroupName(pid: number = process.pid): string {
  return `svc-build-${pid}-${randomBytes(6).toString('hex')}`;
}

/** The pid of the server that made a build cgroup named so; null for any other name. */
export function serverPidOf(name: string): number | null {
  const match = /^svc-build-(\d+)-[0-9a-f]+$/.exec(name);
  return match ? Number(match[1]) : null;
}

/** The cgroup of one build: steps join it before they run; removed (with whatever is left in it) when the build ends. */
export class BuildCgroup {
  private constructor(
    /** The folder name of the cgroup in each hierarchy (`svc-build-…`). */
    readonly name: string,
    readonly version: 1 | 2,
    /** The folders of this build's cgroup: one for v2, the memory (and pids) ones for v1. */
    readonly folders: readonly string[],
    private readonly memoryFolder: string,
  ) {}

  /** Makes the cgroup and sets its caps; whatever was made is removed again when a cap cannot be set. */
  static async create(layout: CgroupLayout, memoryBytes: number, name = buildCgroupName()): Promise<BuildCgroup> {
    const made: string[] = [];
    try {
      if (layout.version === 2) {
        const folder = join(layout.parent, name);
        await mkdir(folder);
        made.push(folder);
        await writeFile(join(folder, 'memory.max'), String(memoryBytes));
        // Swap would stretch the cap: the build gets none (where the kernel has swap accounting).
        await writeFile(join(folder, 'memory.swap.max'), '0').catch(() => undefined);
        if (layout.pids) await writeFile(join(folder, 'pids.max'), String(buildPidsMax));
        return new BuildCgroup(name, 2, made, folder);
      }
      const memoryFolder = join(layout.memoryParent, name);
      await mkdir(memoryFolder);
      made.push(memoryFolder);
      await writeFile(join(memoryFolder, 'memory.limit_in_bytes'), String(memoryBytes));
      await writeFile(join(memoryFolder, 'memory.memsw.limit_in_bytes'), String(memoryBytes)).catch(() => undefined);
      if (layout.pidsParent !== null) {
        const pidsFolder = join(layout.pidsParent, name);
        await mkdir(pidsFolder);
        made.push(pidsFolder);
        await writeFile(join(pidsFolder, 'pids.max'), String(buildPidsMax));
      }
      return new BuildCgroup(name, 1, made, memoryFolder);
    } catch (error) {
      await Promise.all(made.map((folder) => rmdir(folder).catch(() => undefined)));
      throw error;
    }
  }

  /**
   * `command` run so that its first process joins this cgroup before it becomes the command:
   * a shell writes its own pid into each `cgroup.procs` and then execs, so nothing of the
   * step runs outside the cap. A shell that cannot join exits with 125 and says why.
   */
  wrap(command: readonly string[]): string[] {
    const script = 'while [ "$1" != -- ]; do echo $$ > "$1" || { echo "could not join the build cgroup $1" >&2; exit 125; }; shift; done; shift; exec "$@"';
    return ['/bin/sh', '-c', script, 'svc-build', ...this.folders.map((folder) => posix.join(folder, 'cgroup.procs')), '--', ...command];
  }

  /** How many processes the kernel killed in this cgroup for running past its cap. */
  async oomKills(): Promise<number> {
    const file = this.version === 2 ? 'memory.events' : 'memory.oom_control';
    const counted = parseOomKills(await readFile(join(this.memoryFolder, file), 'utf8').catch(() => ''));
    if (counted !== null) return counted;
    // Kernels before 4.13 do not count OOM kills in v1: how often the cap was hit is the hint.
    return Number((await readFile(join(this.memoryFolder, 'memory.failcnt'), 'utf8').catch(() => '0')).trim()) || 0;
  }

  /** Kills whatever is still in the cgroup and removes it; waits up to `waitMs` for the kernel to let go. */
  async remove(waitMs = 5_000): Promise<void> {
    const until = Date.now() + waitMs;
    for (const folder of [...this.folders].reverse()) {
      for (;;) {
        await this.killAll(folder);
        try {
          await rmdir(folder);
          break;
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'ENOENT') break;
          if (code !== 'EBUSY' || Date.now() > until) throw error;
          await sleep(20);
        }
      }
    }
  }

  /** A build cgroup made earlier, to remove what a server that was killed left (`folders` as in each hierarchy). */
  static existing(version: 1 | 2, name: string, folders: readonly string[]): BuildCgroup {
    return new BuildCgroup(name, version, folders, folders[0] ?? '');
  }

  private async killAll(folder: string): Promise<void> {
    if (this.version === 2 && existsSync(join(folder, 'cgroup.kill'))) {
      await writeFile(join(folder, 'cgroup.kill'), '1').catch(() => undefined);
      return;
    }
    const listed = await readFile(join(folder, 'cgroup.procs'), 'utf8').catch(() => '');
    for (const pid of listed.split('\n').filter((line) => /^\d+$/.test(line))) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
}

/**
 * Removes the build cgroups of servers that are gone (killed in the middle of a build, so
 * they could not remove theirs), with anything still running in them: those named with a
 * pid no process has. A running server's cgroups are left alone, whichever instance it is.
 * Returns how many were removed.
 */
export async function removeStaleBuildCgroups(layout: CgroupLayout): Promise<number> {
  const parents = layout.version === 2 ? [layout.parent] : [layout.memoryParent, ...(layout.pidsParent === null ? [] : [layout.pidsParent])];
  const names = new Set<string>();
  for (const parent of parents) {
    for (const entry of await readdir(parent).catch(() => [])) {
      const pid = serverPidOf(entry);
      if (pid !== null && pid !== process.pid && !processAlive(pid)) names.add(entry);
    }
  }
  let removed = 0;
  for (const name of names) {
    const folders = parents.map((parent) => join(parent, name)).filter((folder) => existsSync(folder));
    const removing = BuildCgroup.existing(layout.version, name, folders);
    if (await removing.remove().then(() => true, () => false)) removed += 1;
  }
  return removed;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** How builds are held to `--build-memory` on this host, found once per process. */
export type MemoryCapMethod =
  | { readonly kind: 'cgroup'; readonly layout: CgroupLayout; readonly description: string }
  | { readonly kind: 'node-heap'; readonly description: string };

let probed: Promise<MemoryCapMethod> | null = null;

/**
 * Whether a build cgroup can be made here, tried once per process by making and removing
 * one: the first candidate that works (v2 needs the memory controller delegated to the
 * server's cgroup's children, which is enabled when the kernel lets it), else node's heap cap.
 */
export function memoryCapMethod(): Promise<MemoryCapMethod> {
  probed ??= probe();
  return probed;
}

async function probe(): Promise<MemoryCapMethod> {
  const [procCgroup, mountinfo] = await Promise.all([readFile('/proc/self/cgroup', 'utf8').catch(() => ''), readFile('/proc/self/mountinfo', 'utf8').catch(() => '')]);
  const problems: string[] = [];
  for (const layout of cgroupCandidates(procCgroup, mountinfo)) {
    const where = layout.version === 2 ? layout.parent : layout.memoryParent;
    try {
      const usable = layout.version === 2 ? await delegateV2(layout) : layout;
      const cgroup = await BuildCgroup.create(usable, 64 * 1024 ** 2, `svc-probe-${process.pid}-${randomBytes(6).toString('hex')}`);
      await cgroup.remove();
      return { kind: 'cgroup', layout: usable, description: `a cgroup v${layout.version} per build below ${where}` };
    } catch (error) {
      problems.push(`cgroup v${layout.version} at ${where}: ${(error as Error).message}`);
    }
  }
  const why = problems.length === 0 ? 'no cgroup file system is mounted' : problems.join('; ');
  return { kind: 'node-heap', description: `node's heap cap only (NODE_OPTIONS=--max-old-space-size), since no cgroup can be made here: ${why}` };
}

/** A v2 layout whose parent hands `memory` (and `pids` when it has it) to its children, enabling them if needed. */
async function delegateV2(layout: Extract<CgroupLayout, { version: 2 }>): Promise<CgroupLayout> {
  const available = (await readFile(join(layout.parent, 'cgroup.controllers'), 'utf8')).trim().split(/\s+/);
  if (!available.includes('memory')) throw new Error('the memory controller is not available to this cgroup');
  const pids = available.includes('pids');
  const enabled = (await readFile(join(layout.parent, 'cgroup.subtree_control'), 'utf8')).trim().split(/\s+/);
  const wanted = ['memory', ...(pids ? ['pids'] : [])].filter((controller) => !enabled.includes(controller));
  if (wanted.length > 0) await writeFile(join(layout.parent, 'cgroup.subtree_control'), wanted.map((controller) => `+${controller}`).join(' '));
  return { version: 2, parent: layout.parent, pids };
}
