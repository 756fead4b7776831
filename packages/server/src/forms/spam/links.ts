/** A link as docs/form-endpoint.md counts them: `http://`, `https://` or `www.`, to the next space. */
const link = /https?:\/\/\S*|www\.\S*/gi;

/** How many links the fields hold, counting every string in them (nested JSON too). */
export function countLinks(fields: Readonly<Record<string, unknown>>): number {
  let count = 0;
  const visit = (value: unknown): void => {
    if (typeof value === 'string') count += value.match(link)?.length ?? 0;
    else if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(visit);
  };
  Object.values(fields).forEach(visit);
  return count;
}
