/**
 * Which top-level fields of a JSON body hold a number that would change on storage: one a
 * double cannot hold as written (`1e400`, `9007199254740993`, `0.1000000000000000055511`).
 * Fields are stored as sent (docs/form-endpoint.md), so such numbers are refused with 422
 * rather than stored as `null` or rounded; a client that needs every digit sends a string.
 *
 * Runs on text that JSON.parse accepted. A number of at most 15 characters without an
 * exponent always survives, so a body with no run of 16 digits and dots and no digit
 * followed by `e` (the common body) costs one native regular-expression test, on the form
 * endpoint's hot path, and only the rest is tokenised.
 */
export function inexactNumberFields(text: string): string[] {
  if (!mayHoldInexactNumber.test(text)) return [];
  const found = new Set<string>();
  const token = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|[{}[\],:]|[^"{}[\],:\d-]+/gy;
  let depth = 0;
  let expectKey = false;
  let key = '';
  for (let match = token.exec(text); match !== null; match = token.exec(text)) {
    const value = match[0];
    const first = value.charCodeAt(0);
    if (first === 0x22 /* " */) {
      if (depth === 1 && expectKey) key = JSON.parse(value) as string;
    } else if (first === 0x7b /* { */ || first === 0x5b /* [ */) {
      depth += 1;
      expectKey = first === 0x7b && depth === 1;
    } else if (first === 0x7d /* } */ || first === 0x5d /* ] */) {
      depth -= 1;
    } else if (first === 0x2c /* , */) {
      if (depth === 1) expectKey = true;
    } else if (first === 0x3a /* : */) {
      if (depth === 1) expectKey = false;
    } else if ((first === 0x2d || (first >= 0x30 && first <= 0x39)) && !survives(value)) {
      found.add(key);
    }
  }
  return [...found];
}

const mayHoldInexactNumber = /[\d.]{16}|\d[eE]/;

function survives(literal: string): boolean {
  if (literal.length <= 15 && !/[eE]/.test(literal)) return true;
  const number = Number(literal);
  return Number.isFinite(number) && decimal(String(number)) === decimal(literal);
}

/** A number's value as `digits e exponent` with no leading or trailing zeros: equal values, equal text. */
function decimal(literal: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (!match) return literal;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = match;
  let digits = `${whole}${fraction}`;
  let scale = Number(exponent) - fraction.length;
  digits = digits.replace(/^0+/, '');
  if (digits === '') return '0';
  const trailing = /0+$/.exec(digits)?.[0].length ?? 0;
  digits = digits.slice(0, digits.length - trailing);
  scale += trailing;
  return `${sign}${digits}e${scale}`;
}
