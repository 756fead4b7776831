import { mkdtempSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runProcessTree, type ProcessTreeOptions } from './process-tree.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tree-'));
  dirs.push(dir);
  return dir;
}

function options(script: string, overrides: Partial<ProcessTreeOptions> = {}): ProcessTreeOptions {
  return {
    command: '/bin/sh',
    args: ['-c', script],
    cwd: tmpdir(),
    env: { PATH: '/usr/bin:/bin' },
    deadline: Date.now() + 60_000,
    signal: new AbortController().signal,
    onOutput: () => undefined,
    ...overrides,
  };
}

/** Whether a process is alive (a zombie counts as gone). */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function waitForFile(path: string): Promise<string> {
  await vi.waitFor(() => expect(existsSync(path) && readFileSync(path, 'utf8').trim() !== '').toBe(true), { timeout: 20_000, interval: 20 });
  return readFileSync(path, 'utf8').trim();
}

describe('runProcessTree', () => {
  it('reports the exit code and the output', async () => {
    let output = '';
    const outcome = await runProcessTree(options('echo hello; echo oops >&2; exit 3', { onOutput: (chunk) => (output += chunk) }));
    expect(outcome).toEqual({ kind: 'exited', code: 3, signal: null });
    expect(output).toContain('hello');
    expect(output).toContain('oops');
  });

  it('sees only the environment it is given', async () => {
    process.env.SVC_TREE_CANARY = 'leak';
    let output = '';
    await runProcessTree(options('env', { env: { PATH: '/usr/bin:/bin', ONLY: 'this' }, onOutput: (chunk) => (output += chunk) }));
    delete process.env.SVC_TREE_CANARY;
    expect(output).toContain('ONLY=this');
    expect(output).not.toContain('SVC_TREE_CANARY');
  });

  it('kills the whole tree on cancel, grandchildren and escaped sessions included', async () => {
    const dir = scratch();
    const controller = new AbortController();
    const script = `sleep 1000 & echo $! > ${dir}/child; setsid sleep 1000 & echo $! > ${dir}/escaped; wait`;
    const running = runProcessTree(options(script, { signal: controller.signal }));
    const child = Number(await waitForFile(join(dir, 'child')));
    const escaped = Number(await waitForFile(join(dir, 'escaped')));
    expect(isAlive(child)).toBe(true);
    controller.abort();
    expect(await running).toEqual({ kind: 'canceled' });
    await vi.waitFor(() => expect([isAlive(child), isAlive(escaped)]).toEqual([false, false]), { timeout: 5_000, interval: 20 });
  });

  it('kills the whole tree at the deadline', async () => {
    const dir = scratch();
    const script = `sleep 1000 & echo $! > ${dir}/child; wait`;
    const outcome = await runProcessTree(options(script, { deadline: Date.now() + 1_500 }));
    expect(outcome).toEqual({ kind: 'timeout' });
    const child = Number(await waitForFile(join(dir, 'child')));
    await vi.waitFor(() => expect(isAlive(child)).toBe(false), { timeout: 5_000, interval: 20 });
  });

  it('kills what the command left running when it exits', async () => {
    const dir = scratch();
    const outcome = await runProcessTree(options(`sleep 1000 > /dev/null 2>&1 & echo $! > ${dir}/daemon; exit 0`));
    expect(outcome).toEqual({ kind: 'exited', code: 0, signal: null });
    const daemon = Number(await waitForFile(join(dir, 'daemon')));
    await vi.waitFor(() => expect(isAlive(daemon)).toBe(false), { timeout: 5_000, interval: 20 });
  });

  it('does not start when already canceled', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await runProcessTree(options('exit 0', { signal: controller.signal }))).toEqual({ kind: 'canceled' });
  });
});
