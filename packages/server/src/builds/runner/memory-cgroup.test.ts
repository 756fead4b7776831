import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BuildCgroup, buildCgroupName, cgroupCandidates, cgroupFolder, memoryCapMethod, parseCgroupMounts, parseOomKills, parseProcCgroup, removeStaleBuildCgroups, serverPidOf } from './memory-cgroup.js';

const run = promisify(execFile);

const hybridMountinfo = [
  '31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755',
  '35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory',
  '39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids',
  '40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd',
  '41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
].join('\n');
const hybridProcCgroup = ['9:name=systemd:/', '8:pids:/', '4:memory:/process_api/342cc6', '1:cpu,cpuacct:/', '0::/'].join('\n');

describe('where a build cgroup goes', () => {
  it('reads the controllers and paths of /proc/self/cgroup, v2 under the empty key', () => {
    const paths = parseProcCgroup(hybridProcCgroup);
    expect(paths.get('memory')).toBe('/process_api/342cc6');
    expect(paths.get('cpuacct')).toBe('/');
    expect(paths.get('')).toBe('/');
  });

  it('reads cgroup mounts, v1 with their controllers, and unescapes their paths', () => {
    const mounts = parseCgroupMounts(`${hybridMountinfo}\n50 31 0:40 /docker/abc /sys/fs/cgroup/with\\040space rw - cgroup cgroup rw,memory`);
    expect(mounts).toContainEqual({ version: 1, controllers: ['memory'], root: '/', mountPoint: '/sys/fs/cgroup/memory' });
    expect(mounts).toContainEqual({ version: 2, controllers: [], root: '/', mountPoint: '/sys/fs/cgroup/unified' });
    expect(mounts).toContainEqual({ version: 1, controllers: ['memory'], root: '/docker/abc', mountPoint: '/sys/fs/cgroup/with space' });
    expect(mounts.some((mount) => mount.mountPoint === '/sys/fs/cgroup')).toBe(false);
  });

  it('maps a cgroup path into its mount, also when the mount shows a subtree (a container)', () => {
    const container = { version: 1 as const, controllers: ['memory'], root: '/docker/abc', mountPoint: '/sys/fs/cgroup/memory' };
    expect(cgroupFolder(container, '/docker/abc')).toBe('/sys/fs/cgroup/memory');
    expect(cgroupFolder(container, '/docker/abc/inner')).toBe('/sys/fs/cgroup/memory/inner');
    expect(cgroupFolder(container, '/elsewhere')).toBeNull();
  });

  it('tries v2 first, then the v1 memory hierarchy with the pids one beside it', () => {
    expect(cgroupCandidates(hybridProcCgroup, hybridMountinfo)).toEqual([
      { version: 2, parent: '/sys/fs/cgroup/unified', pids: true },
      { version: 1, memoryParent: '/sys/fs/cgroup/memory/process_api/342cc6', pidsParent: '/sys/fs/cgroup/pids' },
    ]);
    const v2Only = cgroupCandidates('0::/system.slice/svc.service\n', '30 23 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate');
    expect(v2Only).toEqual([{ version: 2, parent: '/sys/fs/cgroup/system.slice/svc.service', pids: true }]);
    expect(cgroupCandidates('', '')).toEqual([]);
  });

  it('names a build cgroup after the server that made it', () => {
    expect(buildCgroupName(4321)).toMatch(/^svc-build-4321-[0-9a-f]{12}$/);
    expect(serverPidOf(buildCgroupName(4321))).toBe(4321);
    expect(serverPidOf('svc-build-86aad53a7a13')).toBeNull();
    expect(serverPidOf('something-else')).toBeNull();
  });

  it('reads the OOM kill count of v1 memory.oom_control and v2 memory.events; null where the kernel has none', () => {
    expect(parseOomKills('oom_kill_disable 0\nunder_oom 0\noom_kill 2\n')).toBe(2);
    expect(parseOomKills('low 0\nhigh 0\nmax 12\noom 1\noom_kill 1\noom_group_kill 0\n')).toBe(1);
    expect(parseOomKills('oom_kill_disable 0\nunder_oom 0\n')).toBeNull();
  });
});

const method = await memoryCapMethod();
if (method.kind !== 'cgroup') console.warn(`memory-cgroup.test.ts: skipping the tests that make a cgroup: ${method.description}`);

describe.runIf(method.kind === 'cgroup')('a build cgroup on this host', () => {
  it('holds a process that joins it to the cap, counts the OOM kill, and is removed with what is left in it', { timeout: 60_000 }, async () => {
    if (method.kind !== 'cgroup') return;
    const cgroup = await BuildCgroup.create(method.layout, 64 * 1024 ** 2);
    const allocate = ['node', '-e', 'const kept = []; for (let i = 0; i < 64; i += 1) kept.push(Buffer.alloc(8 * 1024 * 1024, 1)); console.log("survived")'];
    const [allocating, ...allocatingArgs] = cgroup.wrap(allocate) as [string, ...string[]];
    const stdout = await run(allocating, allocatingArgs).then(
      (result) => result.stdout,
      (error: { stdout?: string }) => error.stdout ?? '',
    );
    expect(stdout).not.toContain('survived');
    expect(await cgroup.oomKills()).toBeGreaterThan(0);

    // A process left running in the cgroup goes with it.
    const [command, ...args] = cgroup.wrap(['sleep', '300']) as [string, ...string[]];
    const left = spawn(command, args, { stdio: 'ignore', detached: true });
    const exited = new Promise((resolve) => left.on('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await cgroup.remove();
    await exited;
    expect(cgroup.folders.filter((folder) => existsSync(folder))).toEqual([]);
  });

  it('removes the cgroups of servers that are gone, with what runs in them, and leaves those of live ones', { timeout: 30_000 }, async () => {
    if (method.kind !== 'cgroup') return;
    // No process has a pid past the kernel's pid_max (at most 2^22); pid 1 always lives.
    const gone = await BuildCgroup.create(method.layout, 64 * 1024 ** 2, buildCgroupName(2_000_000_001));
    const live = await BuildCgroup.create(method.layout, 64 * 1024 ** 2, buildCgroupName(1));
    try {
      const [command, ...args] = gone.wrap(['sleep', '300']) as [string, ...string[]];
      const left = spawn(command, args, { stdio: 'ignore', detached: true });
      const exited = new Promise((resolve) => left.on('exit', resolve));
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await removeStaleBuildCgroups(method.layout)).toBeGreaterThanOrEqual(1);
      await exited;
      expect(gone.folders.filter((folder) => existsSync(folder))).toEqual([]);
      expect(live.folders.filter((folder) => existsSync(folder))).toEqual(live.folders);
    } finally {
      await live.remove();
      await gone.remove();
    }
  });

  it('refuses to run a step it could not put in the cgroup', async () => {
    if (method.kind !== 'cgroup') return;
    const cgroup = await BuildCgroup.create(method.layout, 64 * 1024 ** 2);
    await cgroup.remove();
    const [command, ...args] = cgroup.wrap(['echo', 'ran outside']) as [string, ...string[]];
    const failed = await run(command, args).catch((error: { code: number; stdout: string; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 125 });
    expect((failed as { stdout: string }).stdout).not.toContain('ran outside');
  });
});
