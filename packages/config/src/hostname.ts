/**
 * The hostname rules of service.json (`domains`), in words. The schema states the same rules
 * as `maxLength` plus a `pattern` so that editors check them; this explains which rule a
 * failing hostname breaks. A test keeps the two in agreement.
 */
export const maxHostnameLength = 253;
export const maxLabelLength = 63;

const labelCharacters = /^[A-Za-z0-9-]+$/;

/** Why `hostname` is not a valid hostname, or undefined when it is one. */
export function hostnameProblem(hostname: string): string | undefined {
  if (hostname.length === 0) return 'must not be empty';
  if (hostname.length > maxHostnameLength) {
    return `is ${hostname.length} characters long; a hostname has at most ${maxHostnameLength}`;
  }
  const labels = hostname.split('.');
  if (labels.length < 2) return 'must have at least two labels separated by dots, such as "www.example.com"';
  for (const label of labels) {
    const problem = labelProblem(label);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function labelProblem(label: string): string | undefined {
  if (label.length === 0) return 'has an empty label (a leading, trailing or doubled dot)';
  const shown = label.length > 20 ? `${label.slice(0, 20)}…` : label;
  if (label.length > maxLabelLength) {
    return `has a label of ${label.length} characters ("${shown}"); a label has at most ${maxLabelLength}`;
  }
  if (!labelCharacters.test(label)) return `has a label with characters other than letters, digits and hyphens ("${shown}")`;
  if (label.startsWith('-')) return `has a label that starts with a hyphen ("${shown}")`;
  if (label.endsWith('-')) return `has a label that ends with a hyphen ("${shown}")`;
  return undefined;
}
