/** `::ffff:1.2.3.4` and `1.2.3.4` are one client. */
export function normalizeIp(ip: string | undefined): string {
  if (!ip) return 'unknown';
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}
