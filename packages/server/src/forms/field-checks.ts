import { findUnstorable, shownText, unstorableKind, unstorableMessage } from '../lib/storable-text.js';
import { invalidEmailMessage, isValidEmail } from '../lib/email-address.js';

/** Field names longer than this are refused (docs/form-endpoint.md, "Limits"). */
export const maxFieldNameLength = 100;

export const longNameMessage = `field names are at most ${maxFieldNameLength} characters`;
export const inexactNumberMessage = 'must be a number that can be stored exactly as sent (send it as a string to keep every digit)';

/** The error entry of a name over the limit, keyed by the name shortened to the limit. */
export function longNameError(name: string): Record<string, string> {
  return { [`${name.slice(0, maxFieldNameLength)}…`]: longNameMessage };
}

/**
 * Per-field checks of a submission. The specification sets one rule: a field named
 * `email`, when present, holds a valid address (every value, when it was sent more than
 * once). Ours, so that what is stored is what was sent and stays small: field names of at
 * most 100 characters, and numbers a double holds exactly (`inexactNumbers`, from the
 * JSON text). Returns one message per invalid field; empty when all is well. A name too
 * long to echo is shortened in the answer.
 */
export function checkFields(fields: Readonly<Record<string, unknown>>, inexactNumbers: readonly string[] = []): Record<string, string> {
  const errors: Record<string, string> = {};
  if (Object.hasOwn(fields, 'email')) {
    const value = fields['email'];
    const values = Array.isArray(value) ? value : [value];
    if (values.length === 0 || !values.every(isValidEmail)) errors['email'] = invalidEmailMessage;
  }
  for (const name of Object.keys(fields)) {
    if (name.length > maxFieldNameLength) Object.assign(errors, longNameError(name));
  }
  for (const name of inexactNumbers) {
    if (name.length <= maxFieldNameLength) errors[name] = inexactNumberMessage;
  }
  return errors;
}

/**
 * Fields holding text no store can keep as sent (lib/storable-text.ts): one message per
 * field, keyed by its name with the unstorable characters shown as U+FFFD. Every posted
 * field counts, instructions and unknown ones too: nothing public takes NUL.
 */
export function unstorableFieldErrors(fields: Readonly<Record<string, unknown>>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [name, value] of Object.entries(fields)) {
    const nameKind = unstorableKind(name);
    if (nameKind !== null) {
      errors[shownText(name).slice(0, maxFieldNameLength)] = `field names ${unstorableMessage(nameKind)}`;
      continue;
    }
    const valueKind = findUnstorable(value);
    if (valueKind !== null) errors[name.slice(0, maxFieldNameLength)] = unstorableMessage(valueKind);
  }
  return errors;
}
