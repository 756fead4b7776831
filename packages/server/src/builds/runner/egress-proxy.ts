import type { lookup as dnsLookup } from 'node:dns';
import { lookup } from 'node:dns/promises';
import type { EventEmitter } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { createServer, isIP, type LookupFunction, type Server as NetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RequestError, Server as ProxyServer, type PrepareRequestFunctionOpts, type PrepareRequestFunctionResult } from 'proxy-chain';
import { refusedResolution } from '../../net/address-policy.js';
import type { LookupAll } from './pinned-addresses.js';

/** A connection of a build's install step that moves no byte this long is closed. */
const idleTimeoutMs = 120_000;
/** Connections one build may have open through the proxy at once (npm opens up to 15). */
const connectionsPerBuild = 64;

const resolveAll: LookupAll = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** What one build's install step is given: a unix socket to the proxy, bound into its sandbox. */
export interface EgressGate {
  readonly socketPath: string;
  close(): Promise<void>;
}

interface GateState {
  readonly write: (line: string) => void;
  readonly sockets: Set<Socket>;
}

/**
 * The way out of a build's sandbox while it installs dependencies (docs/hosting.md, "The
 * network, and what it leaves open"): an HTTP forward and CONNECT proxy (`proxy-chain`)
 * that resolves every destination itself, refuses it when any address is one webhooks may
 * not reach (the address policy; all allowed with `--allow-private-targets`), and connects
 * to exactly the addresses it checked, so a DNS answer cannot change in between. The
 * install step runs with no network of its own (`--unshare-net`); each build gets a unix
 * socket of its own that leads here, and nothing else leads out. What was refused is
 * written into the build's log.
 */
export class EgressProxy {
  private readonly proxy: ProxyServer;
  private readonly gates = new WeakMap<Socket, GateState>();

  constructor(
    private readonly allowPrivateTargets: boolean,
    private readonly resolve: LookupAll = resolveAll,
  ) {
    this.proxy = new ProxyServer({ port: 0, prepareRequestFunction: (options) => this.prepare(options) });
  }

  /** A socket for one build; `write` gets a line for each destination refused. */
  async open(write: (line: string) => void): Promise<EgressGate> {
    // A folder of its own in the server's temporary folder: a unix socket's path is short (108 bytes at most).
    const folder = await mkdtemp(join(tmpdir(), 'svc-egress-'));
    const socketPath = join(folder, 'proxy.sock');
    const state: GateState = { write, sockets: new Set() };
    const server: NetServer = createServer((socket) => this.accept(socket, state));
    server.maxConnections = connectionsPerBuild;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
    return {
      socketPath,
      close: async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          for (const socket of state.sockets) socket.destroy();
        });
        await rm(folder, { recursive: true, force: true });
      },
    };
  }

  /**
   * Hands a connection from the sandbox to the proxy's HTTP server (Node lets a server be
   * given connections it did not accept). proxy-chain drops connections without a peer
   * address, which a unix socket's have not: the sandbox is named as the peer.
   */
  private accept(socket: Socket, state: GateState): void {
    Object.defineProperty(socket, 'remoteAddress', { value: 'build-sandbox' });
    state.sockets.add(socket);
    socket.once('close', () => state.sockets.delete(socket));
    socket.setTimeout(idleTimeoutMs);
    this.gates.set(socket, state);
    (this.proxy.server as unknown as EventEmitter).emit('connection', socket);
  }

  private async prepare(options: PrepareRequestFunctionOpts): Promise<PrepareRequestFunctionResult> {
    const state = this.gates.get((options.request as unknown as IncomingMessage).socket);
    if (state === undefined) throw new RequestError('not a build of this server', 403);
    const host = options.hostname.startsWith('[') ? options.hostname.slice(1, -1) : options.hostname;
    const shown = `${options.isHttp ? 'http://' : ''}${options.hostname}:${options.port}`;
    let addresses: string[];
    try {
      addresses = isIP(host) !== 0 ? [host] : (await this.resolve(host)).map((entry) => entry.address);
    } catch (error) {
      throw new RequestError(`could not resolve ${host}: ${(error as Error).message}`, 502);
    }
    if (addresses.length === 0) throw new RequestError(`${host} has no address`, 502);
    const refused = this.allowPrivateTargets ? null : refusedResolution(host, addresses);
    if (refused !== null) {
      const refusal = `${shown} refused: ${refused}`;
      state.write(`Install network: ${refusal} (the address policy; --allow-private-targets allows it)\n`);
      throw new RequestError(refusal, 403);
    }
    return { dnsLookup: pinnedLookup(addresses) };
  }
}

/** A `lookup` that answers exactly the addresses checked, never asking DNS again. */
function pinnedLookup(addresses: readonly string[]): typeof dnsLookup {
  const entries = addresses.map((address) => ({ address, family: isIP(address) }));
  const pinned: LookupFunction = (_hostname, options, callback) => {
    const first = entries[0]!;
    if (options.all) (callback as unknown as (error: null, all: typeof entries) => void)(null, entries);
    else callback(null, first.address, first.family);
  };
  return pinned as unknown as typeof dnsLookup;
}
