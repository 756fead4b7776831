import { walkJson } from './json-walk.js';

/**
 * Text a store cannot hold exactly as sent: PostgreSQL's `text` refuses NUL outright, and
 * an unpaired UTF-16 surrogate (possible in JSON, `"\ud800"`) has no UTF-8 form, so either
 * backend would silently store U+FFFD instead. Such input is refused, never stored changed.
 */
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const unstorableCharacter = /\u0000|\p{Cs}/u;
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const unstorableCharacters = /\u0000|\p{Cs}/gu;

export type UnstorableKind = 'NUL' | 'surrogate';

/** What makes `text` unstorable, or null when it can be stored as it is. */
export function unstorableKind(text: string): UnstorableKind | null {
  if (!unstorableCharacter.test(text)) return null;
  return text.includes('\u0000') ? 'NUL' : 'surrogate';
}

/** `must not contain NUL characters`: what is wrong with a value, in words. */
export function unstorableMessage(kind: UnstorableKind): string {
  return kind === 'NUL' ? 'must not contain NUL characters' : 'must not contain unpaired surrogates (text that is not Unicode)';
}

/** The text with every unstorable character replaced by U+FFFD, to name it in an answer. */
export function shownText(text: string): string {
  return text.replace(unstorableCharacters, '\ufffd');
}

/**
 * The first unstorable string or key anywhere in a value (parsed JSON, form fields), or
 * null. Callers bound the value's depth first; the walk uses its own stack regardless.
 */
export function findUnstorable(root: unknown): UnstorableKind | null {
  const check = (text: string) => unstorableKind(text) ?? undefined;
  return walkJson(root, { text: check, key: check }) ?? null;
}
