import { describe, expect, it } from 'vitest';
import { assertHidden, bubblewrapArgs, readOnlyRoots, resolveSandbox } from './sandbox.js';

function pairs(args: readonly string[], flag: string): string[][] {
  const found: string[][] = [];
  args.forEach((arg, index) => {
    if (arg === flag) found.push([args[index + 1]!, args[index + 2]!]);
  });
  return found;
}

describe('bubblewrapArgs', () => {
  const args = bubblewrapArgs({ checkoutDir: '/data/builds/b1/src', homeDir: '/data/builds/b1/home', tmpDir: '/data/builds/b1/tmp', network: { kind: 'none' } }, ['/usr', '/opt/node']);

  it('never binds the whole file system', () => {
    expect(pairs(args, '--ro-bind').map(([from]) => from)).not.toContain('/');
    expect(pairs(args, '--bind').map(([from]) => from)).not.toContain('/');
  });

  it('shows the system read-only and only the checkout and home writable', () => {
    expect(pairs(args, '--ro-bind')).toEqual([
      ['/usr', '/usr'],
      ['/opt/node', '/opt/node'],
    ]);
    expect(pairs(args, '--bind')).toEqual([
      ['/data/builds/b1/src', '/build/src'],
      ['/data/builds/b1/home', '/build/home'],
      ['/data/builds/b1/tmp', '/tmp'],
    ]);
    expect(pairs(args, '--ro-bind-try').every(([from]) => from?.startsWith('/etc/'))).toBe(true);
  });

  it('unshares everything, drops capabilities and dies with the server', () => {
    expect(args).toEqual(expect.arrayContaining(['--unshare-all', '--die-with-parent', '--new-session', '--cap-drop', 'ALL']));
    expect(args).not.toContain('--share-net');
    expect(args.slice(-2)).toEqual(['--chdir', '/build/src']);
  });

  it('shares the network only when asked', () => {
    expect(bubblewrapArgs({ checkoutDir: '/c', homeDir: '/h', tmpDir: '/t', network: { kind: 'host' } }, ['/usr'])).toContain('--share-net');
  });

  it('gives the install step no network but the egress proxy\'s socket', () => {
    const install = bubblewrapArgs({ checkoutDir: '/c', homeDir: '/h', tmpDir: '/t', network: { kind: 'egress', socketPath: '/tmp/svc-egress-1/proxy.sock' } }, ['/usr']);
    expect(install).not.toContain('--share-net');
    expect(pairs(install, '--bind')).toContainEqual(['/tmp/svc-egress-1/proxy.sock', '/build/egress.sock']);
  });
});

describe('readOnlyRoots', () => {
  it('holds /usr and where node is installed', () => {
    expect(readOnlyRoots('/opt/node-v20/bin/node')).toEqual(expect.arrayContaining(['/usr', '/opt/node-v20']));
  });
});

describe('assertHidden', () => {
  it('refuses a data directory a read-only root would show', () => {
    expect(() => assertHidden(['/usr/local/svc'], ['/usr'])).toThrow(/inside \/usr/);
    expect(() => assertHidden(['/var/lib/svc', '/usrdata'], ['/usr'])).not.toThrow();
  });
});

describe('resolveSandbox', () => {
  it('builds without a sandbox only when none is chosen', async () => {
    expect(await resolveSandbox('none')).toBe('none');
  });
});
