import { printParseErrorCode, visit, type ParseErrorCode } from 'jsonc-parser';
import type { ConfigError, Position } from './config-error.js';
import { childPointer, parentPointer } from './json-pointer.js';
import { tooDeeplyNested } from './nesting-depth.js';
import { positionAt } from './text-position.js';
import { describeSyntaxError, type Context } from './syntax-error.js';

/** Where a value starts in the text and, for an object member, where its key starts. */
export interface NodeLocation {
  readonly value: Position;
  readonly key?: Position;
}

/** Strict JSON parsed together with the position of every value, by JSON Pointer. */
export interface JsonDocument {
  readonly value: unknown;
  /** Same key twice in one object: JSON.parse would silently keep the last value. */
  readonly duplicateKeys: readonly ConfigError[];
  /** Position of the value (or of its key) at `pointer`, or of its nearest located ancestor. */
  readonly positionOf: (pointer: string, anchor?: 'value' | 'key') => Position;
}

export type ParseResult = { ok: true; document: JsonDocument } | { ok: false; error: ConfigError };

interface Frame {
  readonly pointer: string;
  readonly container: Record<string, unknown> | unknown[];
  /** First position of every key seen so far, to find duplicates (objects only). */
  readonly keys: Map<string, Position>;
  key?: { name: string; position: Position };
}

const strict = { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false };

/**
 * Parses strict JSON (no comments, no trailing commas) with jsonc-parser, keeping the
 * position of every value. A leading UTF-8 byte order mark is ignored. On a syntax error,
 * returns the first one only: what follows it is unreliable.
 */
export function parseJsonDocument(source: string): ParseResult {
  const text = source.startsWith('\uFEFF') ? source.slice(1) : source;
  if (/^[ \t\r\n]*$/.test(text)) {
    return { ok: false, error: { pointer: '', message: 'the file is empty: expected a JSON object', line: 1, column: 1 } };
  }
  const tooDeep = tooDeeplyNested(text);
  if (tooDeep !== null) return { ok: false, error: tooDeep };
  const locations = new Map<string, NodeLocation>();
  const duplicateKeys: ConfigError[] = [];
  const stack: Frame[] = [];
  let root: unknown;
  let rootPlaced = false;
  let syntaxError: ConfigError | undefined;

  const place = (value: unknown, position: Position): string => {
    const parent = stack.at(-1);
    if (parent === undefined) {
      root = value;
      rootPlaced = true;
      locations.set('', { value: position });
      return '';
    }
    if (Array.isArray(parent.container)) {
      const pointer = childPointer(parent.pointer, parent.container.length);
      parent.container.push(value);
      locations.set(pointer, { value: position });
      return pointer;
    }
    const key = parent.key ?? { name: '', position };
    const pointer = childPointer(parent.pointer, key.name);
    setMember(parent.container, key.name, value);
    locations.set(pointer, { value: position, key: key.position });
    return pointer;
  };
  const open = (container: Frame['container'], line: number, character: number): void => {
    if (syntaxError !== undefined) return;
    const pointer = place(container, at(line, character));
    stack.push({ pointer, container, keys: new Map() });
  };
  const close = (): void => {
    if (syntaxError === undefined) stack.pop();
  };

  visit(
    text,
    {
      onObjectBegin: (_offset, _length, line, character) => open({}, line, character),
      onArrayBegin: (_offset, _length, line, character) => open([], line, character),
      onObjectEnd: close,
      onArrayEnd: close,
      onObjectProperty: (name, _offset, _length, line, character) => {
        const frame = stack.at(-1);
        if (syntaxError !== undefined || frame === undefined) return;
        const position = at(line, character);
        const first = frame.keys.get(name);
        if (first === undefined) frame.keys.set(name, position);
        else {
          duplicateKeys.push({
            pointer: childPointer(frame.pointer, name),
            message: `duplicate key ${JSON.stringify(name)}: first defined at line ${first.line}, column ${first.column}`,
            ...position,
          });
        }
        frame.key = { name, position };
      },
      onLiteralValue: (value: unknown, _offset, _length, line, character) => {
        if (syntaxError === undefined) place(value, at(line, character));
      },
      onError: (code: ParseErrorCode, offset, length) => {
        if (syntaxError !== undefined) return;
        const top = stack.at(-1)?.container;
        const context: Context = top !== undefined ? (Array.isArray(top) ? 'array' : 'object') : rootPlaced ? 'after-value' : 'before-value';
        const problem = describeSyntaxError(text, printParseErrorCode(code), offset, length, context);
        syntaxError = { pointer: '', message: problem.message, ...positionAt(text, problem.offset) };
      },
    },
    strict,
  );

  if (syntaxError !== undefined) return { ok: false, error: syntaxError };
  const positionOf = (pointer: string, anchor: 'value' | 'key' = 'value'): Position => {
    for (let current: string | undefined = pointer; current !== undefined; current = parentPointer(current)) {
      const location = locations.get(current);
      if (location !== undefined) return (anchor === 'key' && current === pointer ? location.key : undefined) ?? location.value;
    }
    return { line: 1, column: 1 };
  };
  return { ok: true, document: { value: root, duplicateKeys, positionOf } };
}

/** jsonc-parser counts lines and characters from 0. */
function at(line: number, character: number): Position {
  return { line: line + 1, column: character + 1 };
}

/** A member named `__proto__` is an own property, as with JSON.parse, not the prototype. */
function setMember(object: Record<string, unknown>, name: string, value: unknown): void {
  if (name === '__proto__') Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
  else object[name] = value;
}
