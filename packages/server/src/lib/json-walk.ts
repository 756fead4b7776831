/** Where a walk of parsed JSON is: how deep (the root is 0), and its JSON-pointer-like path, made only when asked. */
export interface JsonPlace {
  readonly depth: number;
  path(): string;
}

/** What a walk looks at; a visit that returns anything but undefined stops the walk with it. */
export interface JsonVisitor<T> {
  /** A string value. */
  text?(value: string, at: JsonPlace): T | undefined;
  /** An object's key (array indexes are not keys). */
  key?(key: string, at: JsonPlace): T | undefined;
  /** An object or array, before its children. */
  container?(value: object, at: JsonPlace): T | undefined;
}

interface Step {
  readonly value: unknown;
  readonly depth: number;
  readonly name: string;
  readonly parent: Step | null;
}

function pathOf(step: Step): string {
  const names: string[] = [];
  for (let at: Step | null = step; at !== null && at.parent !== null; at = at.parent) names.push(at.name);
  return names.reverse().map((name) => `/${name}`).join('');
}

/**
 * Walks parsed JSON (or form fields) depth first with a stack of its own, never recursion,
 * so that no input can exhaust the call stack: the one walker of the server's input checks
 * (lib/storable-text.ts, http/storable-input.ts, forms/json-body.ts). Returns what the
 * first visit that answered returned, else undefined.
 */
export function walkJson<T>(root: unknown, visitor: JsonVisitor<T>): T | undefined {
  const stack: Step[] = [{ value: root, depth: 0, name: '', parent: null }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    const { value } = step;
    const at: JsonPlace = { depth: step.depth, path: () => pathOf(step) };
    if (typeof value === 'string') {
      const found = visitor.text?.(value, at);
      if (found !== undefined) return found;
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const found = visitor.container?.(value, at);
    if (found !== undefined) return found;
    for (const [name, child] of Object.entries(value)) {
      if (!Array.isArray(value) && visitor.key) {
        const keyed = visitor.key(name, at);
        if (keyed !== undefined) return keyed;
      }
      stack.push({ value: child, depth: step.depth + 1, name: name.slice(0, 100), parent: step });
    }
  }
  return undefined;
}
