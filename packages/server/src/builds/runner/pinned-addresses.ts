import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { refusedResolution } from '../../net/address-policy.js';
import { BuildError } from './build-error.js';

export type LookupAll = (hostname: string) => Promise<readonly { address: string }[]>;

const lookupAll: LookupAll = (hostname) => lookup(hostname, { all: true, verbatim: true });

/**
 * Resolves an https repository's host once, refuses it when any address is one webhooks may
 * not reach (docs/webhooks.md, the address policy) unless private targets are allowed, and
 * returns the `http.curloptResolve` entry that makes git connect to exactly those addresses,
 * so a DNS answer cannot change between the check and the fetch.
 */
export async function pinnedAddresses(url: URL, allowPrivateTargets: boolean, resolve: LookupAll = lookupAll): Promise<string[]> {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const port = url.port === '' ? '443' : url.port;
  let addresses: string[];
  if (isIP(host) !== 0) {
    addresses = [host];
  } else {
    try {
      addresses = (await resolve(host)).map((entry) => entry.address);
    } catch (error) {
      throw new BuildError('fetch_failed', `could not resolve ${host}: ${(error as Error).message}`);
    }
    if (addresses.length === 0) throw new BuildError('fetch_failed', `${host} has no address`);
  }
  const refused = allowPrivateTargets ? null : refusedResolution(host, addresses);
  if (refused !== null) throw new BuildError('fetch_failed', `refused: ${refused}`);
  if (isIP(host) !== 0) return [];
  return [`${host}:${port}:${addresses.map((address) => (isIP(address) === 6 ? `[${address}]` : address)).join(',')}`];
}
