/**
 * A link as docs/form-endpoint.md counts them, each to the next space: any `scheme://`, a
 * protocol-relative `//host.tld`, `www.`, or a bare `host.tld/` with a path. Text is
 * NFKC-normalised first, so full-width letters and slashes count as the ASCII they show.
 */
const label = '[a-z0-9](?:[a-z0-9-]*[a-z0-9])?';
const host = `${label}(?:\\.${label})*\\.[a-z]{2,63}`;
const link = new RegExp([`\\b[a-z][a-z0-9+.-]*://\\S+`, `(?<![\\w/:])//${host}\\S*`, `\\bwww\\.\\S+`, `\\b${host}/\\S*`].join('|'), 'gi');

/** How many links the fields hold, counting every string in them (nested JSON too). */
export function countLinks(fields: Readonly<Record<string, unknown>>): number {
  let count = 0;
  const visit = (value: unknown): void => {
    if (typeof value === 'string') count += value.normalize('NFKC').match(link)?.length ?? 0;
    else if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(visit);
  };
  Object.values(fields).forEach(visit);
  return count;
}
