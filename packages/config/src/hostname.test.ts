import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostnameProblem, maxHostnameLength } from './hostname.js';
import { serviceSchema } from './schema.js';

const definitions = serviceSchema['definitions'] as Record<string, { pattern: string; maxLength: number }>;
const hostnameSchema = definitions['hostname']!;

/** The schema's verdict, as an editor computes it: maxLength plus the pattern. */
function schemaAccepts(hostname: string): boolean {
  return hostname.length <= hostnameSchema.maxLength && new RegExp(hostnameSchema.pattern, 'u').test(hostname);
}

describe('hostnameProblem', () => {
  it('agrees with the schema on which hostnames are valid', () => {
    const label = fc.array(fc.constantFrom('a', 'Z', '0', '-', '_', '.', 'é'), { maxLength: 66 }).map((chars) => chars.join(''));
    const hostname = fc.array(label, { minLength: 0, maxLength: 6 }).map((labels) => labels.join('.'));
    fc.assert(
      fc.property(hostname, (candidate) => {
        expect(hostnameProblem(candidate) === undefined, JSON.stringify(candidate)).toBe(schemaAccepts(candidate));
      }),
      { numRuns: 5000 },
    );
  });

  it('states the limit of 253 characters the schema states', () => {
    expect(hostnameSchema.maxLength).toBe(maxHostnameLength);
  });

  it.each([
    ['www.example.com', undefined],
    ['a.b', undefined],
    ['', 'must not be empty'],
    ['localhost', 'must have at least two labels separated by dots, such as "www.example.com"'],
    ['-a.com', 'has a label that starts with a hyphen ("-a")'],
    ['a-.com', 'has a label that ends with a hyphen ("a-")'],
    ['a..com', 'has an empty label (a leading, trailing or doubled dot)'],
    ['bücher.example', 'has a label with characters other than letters, digits and hyphens ("bücher")'],
  ])('says what is wrong with %j', (hostname, problem) => {
    expect(hostnameProblem(hostname)).toBe(problem);
  });
});
