import { describe, expect, it } from 'vitest';
import { buildEnvironment } from './build-environment.js';

describe('buildEnvironment', () => {
  it('is made from nothing: only the variables a build needs', () => {
    process.env.SVC_SECRET_CANARY = 'leak';
    const env = buildEnvironment({ home: '/build/home', tmp: '/tmp', memoryBytes: 2 * 1024 ** 3, nodeExecutable: '/opt/node/bin/node' });
    delete process.env.SVC_SECRET_CANARY;
    expect(Object.keys(env).sort()).toEqual(['CI', 'HOME', 'LANG', 'NODE_ENV', 'NODE_OPTIONS', 'PATH', 'TMPDIR']);
    expect(env).toMatchObject({ CI: 'true', NODE_ENV: 'production', HOME: '/build/home', PATH: '/opt/node/bin:/usr/local/bin:/usr/bin:/bin' });
    expect(Object.values(env).join('\n')).not.toContain('leak');
  });

  it('caps node heap below the memory cap', () => {
    expect(buildEnvironment({ home: '/h', tmp: '/t', memoryBytes: 2 * 1024 ** 3 }).NODE_OPTIONS).toBe('--max-old-space-size=1536');
  });
});
