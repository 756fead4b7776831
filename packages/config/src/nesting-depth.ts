import type { ConfigError } from './config-error.js';
import { childPointer } from './json-pointer.js';
import { positionAt } from './text-position.js';

/** Deeper is refused before parsing (docs/configuration.md): a service.json nests a few levels. */
export const maxNestingDepth = 64;

interface Level {
  readonly pointer: string;
  readonly array: boolean;
  /** The array index or the object key of the member being read. */
  index: number;
  key: string;
}

/**
 * The first object or array nested deeper than `maxDepth` (the whole document is level 1),
 * as an error at its opening bracket with its JSON Pointer; null when there is none. The
 * parser recurses once per level, so thousands of levels would exhaust the stack: this scan
 * keeps its own stack and runs before it. It reads only brackets, strings (for keys) and
 * commas, so text that is not JSON gets no error here but from the parser after.
 */
export function tooDeeplyNested(text: string, maxDepth = maxNestingDepth): ConfigError | null {
  const levels: Level[] = [];
  let expectingKey = false;
  for (let offset = 0; offset < text.length; offset++) {
    const character = text[offset];
    if (character === '"') {
      const end = stringEnd(text, offset);
      const top = levels.at(-1);
      if (top !== undefined && !top.array && expectingKey) {
        top.key = decodeString(text.slice(offset, end + 1));
        expectingKey = false;
      }
      offset = end;
    } else if (character === '{' || character === '[') {
      const parent = levels.at(-1);
      const pointer = parent === undefined ? '' : childPointer(parent.pointer, parent.array ? parent.index : parent.key);
      if (levels.length >= maxDepth) {
        return { pointer, message: `is nested more than ${maxDepth} levels deep; a service.json needs only a few`, ...positionAt(text, offset) };
      }
      levels.push({ pointer, array: character === '[', index: 0, key: '' });
      expectingKey = character === '{';
    } else if (character === '}' || character === ']') {
      levels.pop();
      expectingKey = false;
    } else if (character === ',') {
      const top = levels.at(-1);
      if (top?.array) top.index += 1;
      else expectingKey = top !== undefined;
    }
  }
  return null;
}

/** The offset of the quote that ends the string starting at `start` (or the last offset, unterminated). */
function stringEnd(text: string, start: number): number {
  for (let offset = start + 1; offset < text.length; offset++) {
    if (text[offset] === '\\') offset += 1;
    else if (text[offset] === '"') return offset;
  }
  return text.length - 1;
}

function decodeString(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    return quoted.slice(1, -1);
  }
}
