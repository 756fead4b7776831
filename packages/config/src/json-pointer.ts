/** One reference token of a JSON Pointer, escaped as RFC 6901 §3 requires (`~` → `~0`, `/` → `~1`). */
export function escapePointerToken(token: string): string {
  return token.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** The pointer of a member (object key or array index) of the value at `parent`. */
export function childPointer(parent: string, token: string | number): string {
  return `${parent}/${typeof token === 'number' ? String(token) : escapePointerToken(token)}`;
}

/** The pointer of the value that contains the value at `pointer`; the root has none. */
export function parentPointer(pointer: string): string | undefined {
  if (pointer === '') return undefined;
  return pointer.slice(0, pointer.lastIndexOf('/'));
}
