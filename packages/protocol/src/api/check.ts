import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

export type { Static, TSchema } from 'typebox';

/** A compiled check of one schema: is a value of its type, and if not, why. */
export interface Checker<S extends TSchema> {
  check(value: unknown): value is Static<S>;
  /** The first problem, as `/path must …`, or null when the value is valid. */
  firstError(value: unknown): string | null;
}

const compiled = new WeakMap<TSchema, Checker<TSchema>>();

/** Compiles `schema` once (TypeBox generates a validation function) and remembers it. */
export function checkerFor<S extends TSchema>(schema: S): Checker<S> {
  const known = compiled.get(schema);
  if (known) return known;
  const validator = Compile(schema);
  const checker: Checker<S> = {
    check: (value: unknown): value is Static<S> => validator.Check(value),
    firstError: (value: unknown) => {
      if (validator.Check(value)) return null;
      const [first] = validator.Errors(value);
      if (!first) return 'does not match the schema';
      return `${first.instancePath === '' ? '(root)' : first.instancePath} ${first.message}`;
    },
  };
  compiled.set(schema, checker);
  return checker;
}
