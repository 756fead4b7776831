import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { refusedResolution } from '../net/address-policy.js';

/** A connection was refused because the target resolves to an address webhooks may not reach. */
export class RefusedTargetError extends Error {
  override readonly name = 'RefusedTargetError';
  readonly code = 'ERR_SVC_REFUSED_TARGET';
}

export type ResolveAll = (hostname: string, options: LookupAllOptions, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

/**
 * A `lookup` for `net.connect` that resolves the host and refuses the connection when ANY of
 * its addresses is refused by the address policy. It runs for every new connection, at
 * connect time, so a DNS answer that changes after a check (rebinding) is checked again.
 * Node calls it with `all: true` (happy eyeballs) or without; both are answered.
 */
export function guardedLookup(resolve: ResolveAll = dnsLookup): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) {
        callback(error, '', 0);
        return;
      }
      const refused = refusedResolution(hostname, addresses.map((entry) => entry.address));
      if (refused !== null) {
        callback(new RefusedTargetError(`refused: ${refused}`), '', 0);
        return;
      }
      const [first] = addresses;
      if (!first) {
        callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
        return;
      }
      if (options.all) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}
