import { describe, expect, it } from 'vitest';
import { authorizationHeader, gitEnvironment } from './git-environment.js';

function configOf(env: Record<string, string>): [string, string][] {
  const count = Number(env.GIT_CONFIG_COUNT);
  return Array.from({ length: count }, (_, index) => [env[`GIT_CONFIG_KEY_${index}`]!, env[`GIT_CONFIG_VALUE_${index}`]!]);
}

describe('gitEnvironment', () => {
  it('holds none of the server process variables', () => {
    process.env.SVC_GIT_CANARY = 'leak';
    const env = gitEnvironment({ home: '/tmp/home', allowLocal: false });
    delete process.env.SVC_GIT_CANARY;
    expect(Object.values(env).join('\n')).not.toContain('leak');
    expect(env.HOME).toBe('/tmp/home');
    expect(env.GIT_TERMINAL_PROMPT).toBe('0');
  });

  it('turns hooks, redirects and every transport but https off', () => {
    const config = configOf(gitEnvironment({ home: '/h', allowLocal: false }));
    expect(config).toContainEqual(['core.hooksPath', '/dev/null']);
    expect(config).toContainEqual(['protocol.allow', 'never']);
    expect(config).toContainEqual(['protocol.https.allow', 'always']);
    expect(config).toContainEqual(['protocol.file.allow', 'never']);
    expect(config).toContainEqual(['http.followRedirects', 'false']);
  });

  it('allows file transport only when local repositories are', () => {
    expect(configOf(gitEnvironment({ home: '/h', allowLocal: true }))).toContainEqual(['protocol.file.allow', 'always']);
  });

  it('sends the token as a header and pins addresses', () => {
    const config = configOf(gitEnvironment({ home: '/h', allowLocal: false, token: 'ghp_secret', pinnedAddresses: ['example.com:443:93.184.215.14'] }));
    expect(config).toContainEqual(['http.extraHeader', `Authorization: Basic ${Buffer.from('x-access-token:ghp_secret').toString('base64')}`]);
    expect(config).toContainEqual(['http.curloptResolve', 'example.com:443:93.184.215.14']);
  });
});

describe('authorizationHeader', () => {
  it('keeps a user given with the token', () => {
    expect(authorizationHeader('oauth2:glpat')).toBe(`Authorization: Basic ${Buffer.from('oauth2:glpat').toString('base64')}`);
  });

  it('refuses a token that could split the header', () => {
    expect(() => authorizationHeader('a\r\nX-Evil: 1')).toThrow(/control characters/);
  });
});
