import { createRequire } from 'node:module';
import type * as IpAddr from 'ipaddr.js';

// ipaddr.js is CommonJS with `export =`; its names are not visible to an ESM import.
export const ipaddr = createRequire(import.meta.url)('ipaddr.js') as typeof IpAddr;

/** A parsed IPv4 or IPv6 address. */
export type IpAddress = IpAddr.IPv4 | IpAddr.IPv6;
