/** Whether `If-None-Match` (a list, weak or strong tags, or `*`) holds `etag`: the client's copy is current. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const value = tag.trim();
    return value === '*' || value === etag || value === `W/${etag}`;
  });
}
