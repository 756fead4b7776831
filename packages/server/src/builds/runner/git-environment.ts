import { hasControlCharacter } from './git-names.js';

/** Git settings every fetch runs with, given through the environment so none shows in argv. */
export interface GitEnvironmentOptions {
  /** An empty folder used as HOME: no user configuration, no credential store. */
  readonly home: string;
  /** An access token for an https repository, sent as an Authorization header. */
  readonly token?: string | undefined;
  /** Whether file:// and local paths may be fetched. */
  readonly allowLocal: boolean;
  /** `host:port:address[,address]` entries pinning what DNS gave the address policy check. */
  readonly pinnedAddresses?: readonly string[] | undefined;
  /** More settings after the fixed ones (tests: `protocol.version=0`, as an old host speaks). */
  readonly extraConfig?: readonly (readonly [string, string])[] | undefined;
}

/**
 * The complete environment of a `git` process: none of the server's variables, no system or
 * global configuration, no prompts, no hooks, no redirects, only the https (and, when
 * allowed, file) transports. The token travels in `http.extraHeader` through
 * `GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n`: the environment of a process is readable only
 * by its own user, unlike its argv, and git never prints configured headers.
 */
export function gitEnvironment(options: GitEnvironmentOptions): Record<string, string> {
  const config: [string, string][] = [
    ['core.hooksPath', '/dev/null'],
    ['core.fsmonitor', 'false'],
    ['protocol.allow', 'never'],
    ['protocol.https.allow', 'always'],
    ['protocol.file.allow', options.allowLocal ? 'always' : 'never'],
    ['http.followRedirects', 'false'],
    // A stalled transfer ends instead of holding the build until its timeout.
    ['http.lowSpeedLimit', '1000'],
    ['http.lowSpeedTime', '60'],
    ['transfer.fsckObjects', 'true'],
    ['fetch.recurseSubmodules', 'false'],
    ['gc.auto', '0'],
    ['init.defaultBranch', 'main'],
    ['advice.detachedHead', 'false'],
  ];
  for (const entry of options.pinnedAddresses ?? []) config.push(['http.curloptResolve', entry]);
  for (const [key, value] of options.extraConfig ?? []) config.push([key, value]);
  if (options.token !== undefined) config.push(['http.extraHeader', authorizationHeader(options.token)]);
  const env: Record<string, string> = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: options.home,
    LANG: 'C.UTF-8',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '/bin/false',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_CONFIG_COUNT: String(config.length),
  };
  config.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}

/**
 * HTTP Basic with the token as the password: `user:token` as given, else the user
 * `x-access-token` (GitHub's name for it; GitLab and Gitea accept any user with a token).
 */
export function authorizationHeader(token: string): string {
  if (token === '' || hasControlCharacter(token)) throw new Error('the repository token is empty or holds control characters');
  const pair = token.includes(':') ? token : `x-access-token:${token}`;
  return `Authorization: Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
}
