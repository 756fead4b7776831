/** The honeypot: a field (or request header) of this name that holds anything means spam. */
export const honeypotName = 'x-service-honeypot';

/** What a post asks of the endpoint besides its data (docs/form-endpoint.md). */
export interface PostInstructions {
  /** `_redirect`: the success URL for this one post, still to be checked. */
  readonly redirect: string | null;
  /** The honeypot field was filled in. */
  readonly honeypot: boolean;
}

/**
 * Splits a post into the fields to store and its instructions: fields whose names start
 * with `_` are instructions, and the honeypot field is a trap; neither is stored.
 */
export function separateInstructions(posted: Readonly<Record<string, unknown>>): { fields: Record<string, unknown>; instructions: PostInstructions } {
  const fields: Record<string, unknown> = {};
  let redirect: string | null = null;
  let honeypot = false;
  for (const [name, value] of Object.entries(posted)) {
    if (name === honeypotName) {
      honeypot ||= isFilled(value);
    } else if (name.startsWith('_')) {
      if (name === '_redirect' && typeof value === 'string' && value.trim() !== '') redirect = value.trim();
    } else {
      fields[name] = value;
    }
  }
  return { fields, instructions: { redirect, honeypot } };
}

function isFilled(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.some(isFilled);
  return true;
}
