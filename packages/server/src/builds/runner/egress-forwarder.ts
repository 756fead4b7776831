/** Where a build's proxy socket appears inside the sandbox. */
export const sandboxEgressSocket = '/build/egress.sock';
/** The port the install step's proxy listens on, on the sandbox's own loopback. */
export const sandboxProxyPort = 3128;

/**
 * The program that runs first in the install step's sandbox, which has a network namespace
 * of its own with only a loopback (bubblewrap's `--unshare-net`): it listens on
 * 127.0.0.1:{@link sandboxProxyPort} and pipes each connection to the server's egress proxy
 * through the unix socket bound in, then runs the install command and ends as it ends.
 * CommonJS, given to `node -e`: nothing of it is a file the build could change.
 */
const forwarder = `
const net = require('node:net');
const { spawn } = require('node:child_process');
const [socketPath, port, command, ...args] = process.argv.slice(1);
const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  client.on('error', () => upstream.destroy());
  upstream.on('error', () => client.destroy());
  client.pipe(upstream).pipe(client);
});
server.listen(Number(port), '127.0.0.1', () => {
  const child = spawn(command, args, { stdio: 'inherit' });
  child.on('error', (error) => { console.error(command + ' could not start: ' + error.message); process.exit(127); });
  child.on('exit', (code, signal) => {
    if (signal !== null) { process.kill(process.pid, signal); process.exit(128 + (require('node:os').constants.signals[signal] || 0)); }
    process.exit(code === null ? 1 : code);
  });
});
`;

/** The install command, run behind the forwarder by the node that builds use. */
export function behindForwarder(nodeExecutable: string, command: string, args: readonly string[]): [string, ...string[]] {
  return [nodeExecutable, '-e', forwarder, sandboxEgressSocket, String(sandboxProxyPort), command, ...args];
}

/**
 * The variables that send npm, and git under it, through the forwarder. They rank above a
 * repository's `.npmrc` (npm reads its environment's `npm_config_*` first); a repository
 * that tries another way out anyway finds no route.
 */
export function proxyEnvironment(): Record<string, string> {
  const proxy = `http://127.0.0.1:${sandboxProxyPort}`;
  return {
    npm_config_proxy: proxy,
    npm_config_https_proxy: proxy,
    npm_config_noproxy: '',
    HTTP_PROXY: proxy,
    HTTPS_PROXY: proxy,
    http_proxy: proxy,
    https_proxy: proxy,
  };
}
