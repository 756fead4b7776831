import { describe, expect, it } from 'vitest';
import { configText, minimalConfig, positionIn } from './test-support/config-text.js';
import { validate } from './validate.js';

/** The one error of `text` (the test fails if there are more or none). */
function onlyError(text: string) {
  const result = validate(text);
  expect(result.errors).toHaveLength(1);
  return result.errors[0];
}

const lines = (...text: string[]): string => text.join('\n');

const timeoutOf59 = lines(
  '{',
  '  "workspace": "acme",',
  '  "project": "site",',
  '  "framework": "next",',
  '  "environments": { "production": { "branch": "main" } },',
  '  "auto": {',
  '    "timeout": 59',
  '  }',
  '}',
);

describe('validate: where errors are', () => {
  it('places a value error at the value, 1-based', () => {
    expect(onlyError(timeoutOf59)).toEqual({ pointer: '/auto/timeout', message: 'must be >= 60', line: 7, column: 16 });
  });

  it('places an unknown property at its key', () => {
    const text = timeoutOf59.replace('"timeout": 59', '"timeout": 60, "retries": 3');
    expect(onlyError(text)).toEqual({ pointer: '/auto/retries', message: 'unknown property "retries"', line: 7, column: 20 });
  });

  it('places a missing property at the object that lacks it', () => {
    const text = timeoutOf59.replace('{ "branch": "main" }', '{ "brunch": "main" }').replace('59', '60');
    expect(validate(text).errors).toEqual([
      { pointer: '/environments/production', message: 'missing required property "branch"', line: 5, column: 35 },
      { pointer: '/environments/production/brunch', message: 'unknown property "brunch"', line: 5, column: 37 },
    ]);
  });

  it('places a missing top-level property at the opening brace', () => {
    expect(onlyError('\n\n  {"workspace": "acme", "project": "site", "framework": "next"}')).toEqual({
      pointer: '',
      message: 'missing required property "environments"',
      line: 3,
      column: 3,
    });
  });

  it('returns every error, sorted by position', () => {
    const text = configText({ '/auto/timeout': 1801, '/workspace': 'Acme', '/forms/1/slug': '', '/extra': true });
    const found = validate(text).errors.map(({ pointer, line, column }) => ({ pointer, line, column }));
    expect(found).toEqual([
      { pointer: '/workspace', ...positionIn(text, '"Acme"') },
      { pointer: '/forms/1/slug', ...positionIn(text, '""') },
      { pointer: '/auto/timeout', ...positionIn(text, '1801') },
      { pointer: '/extra', ...positionIn(text, '"extra"') },
    ]);
  });

  it('reports each problem once even when several rules of the schema see it', () => {
    const text = configText({ '/domains/production': ['-'.repeat(254)] });
    expect(validate(text).errors).toEqual([
      { pointer: '/domains/production/0', message: 'is 254 characters long; a hostname has at most 253', ...positionIn(text, '"---') },
    ]);
  });

  it('counts lines ending in CRLF and columns after tabs as editors do', () => {
    const text = timeoutOf59.replaceAll('\n', '\r\n').replace('    "timeout"', '\t"timeout"');
    expect(onlyError(text)).toMatchObject({ line: 7, column: 13 });
  });

  it('ignores a leading UTF-8 byte order mark, also for columns', () => {
    expect(validate(`\uFEFF${configText({}, minimalConfig)}`).ok).toBe(true);
    expect(onlyError('\uFEFF{"workspace": 1, "project": "p", "framework": "next", "environments": {"production": {"branch": "m"}}}')).toEqual({
      pointer: '/workspace',
      message: 'must be a string, not the number 1',
      line: 1,
      column: 15,
    });
  });

  it('escapes ~ and / in the pointer of an unknown property', () => {
    expect(onlyError(configText({ '/auto/a~1b~0c': 1 }))).toMatchObject({ pointer: '/auto/a~1b~0c', message: 'unknown property "a/b~c"' });
  });

  it('reports a "__proto__" key as an unknown property rather than changing the prototype', () => {
    const text = configText({}, minimalConfig).replace('{', '{ "__proto__": { "polluted": true },');
    expect(onlyError(text)).toEqual({ pointer: '/__proto__', message: 'unknown property "__proto__"', line: 1, column: 3 });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('validate: JSON syntax', () => {
  const syntaxCases = [
    { it: 'a missing comma between properties', text: '{\n  "a": 1\n  "b": 2\n}', message: 'expected a comma or closing brace', line: 3, column: 3 },
    { it: 'a missing comma between array items', text: '{"a": [1\n 2]}', message: 'expected a comma or closing bracket', line: 2, column: 2 },
    { it: 'a trailing comma, at the comma', text: '{\n  "a": 1,\n}', message: 'trailing commas are not allowed in JSON', line: 2, column: 9 },
    { it: 'a trailing comma in an array', text: '{"a": [1, 2, ]}', message: 'trailing commas are not allowed in JSON', line: 1, column: 12 },
    { it: 'an unclosed object at the end of the file', text: '{\n  "a": 1\n', message: 'unexpected end of file: missing a closing brace', line: 3, column: 1 },
    { it: 'an unclosed array at the end of the file', text: '{"a": [1', message: 'unexpected end of file: missing a closing bracket', line: 1, column: 9 },
    { it: 'a missing value at the end of the file', text: '{"a":', message: 'unexpected end of file: expected a value', line: 1, column: 6 },
    { it: 'a line comment', text: '{\n  // the workspace\n  "a": 1\n}', message: 'comments are not allowed in JSON', line: 2, column: 3 },
    { it: 'a block comment', text: '{ /* x */ "a": 1 }', message: 'comments are not allowed in JSON', line: 1, column: 3 },
    { it: 'single-quoted strings', text: "{'a': 1}", message: 'strings must be in double quotes, not single quotes', line: 1, column: 2 },
    { it: 'an unquoted property name', text: '{a: 1}', message: 'unexpected "a": strings and property names must be in double quotes', line: 1, column: 2 },
    { it: 'a missing colon', text: '{"a" 1}', message: 'expected a colon after the property name', line: 1, column: 6 },
    { it: 'a missing value', text: '{"a": }', message: 'expected a value', line: 1, column: 7 },
    { it: 'an unterminated string', text: '{"a": "b\n}', message: 'unterminated string: a string must end with a double quote on the same line', line: 1, column: 7 },
    { it: 'an invalid escape, at the backslash', text: '{"a": "x\\qy"}', message: 'invalid escape sequence "\\\\q"', line: 1, column: 9 },
    { it: 'a bad unicode escape, at the backslash', text: '{"a": "x\\u12G4"}', message: 'invalid unicode escape: \\u must be followed by four hexadecimal digits', line: 1, column: 9 },
    { it: 'a raw tab inside a string, at the tab', text: '{"a": "b\tc"}', message: 'control characters must be escaped in strings, for example as \\n or \\t', line: 1, column: 9 },
    { it: 'content after the object', text: '{}\n{}', message: 'unexpected content after the end of the JSON value', line: 2, column: 1 },
    { it: 'a word after the object', text: '{} x', message: 'unexpected content after the end of the JSON value', line: 1, column: 4 },
    { it: 'a number with a leading plus', text: '{"a": +1}', message: 'unexpected character "+"', line: 1, column: 7 },
    { it: 'an incomplete number', text: '{"a": 1.}', message: 'incomplete number "1."', line: 1, column: 7 },
    { it: 'a non-breaking space, which JSON does not count as white space', text: '{\u00a0}', message: 'unexpected character U+00A0', line: 1, column: 2 },
  ];

  it.each(syntaxCases)('reports $it with its line and column', ({ text, message, line, column }) => {
    expect(validate(text)).toEqual({ ok: false, errors: [{ pointer: '', message, line, column }] });
  });

  it('reports only the first syntax error, since what follows it is unreliable', () => {
    expect(validate('{"a": 1 "b": 2 "c": }').errors).toHaveLength(1);
  });

  it('reports an empty file', () => {
    expect(validate('')).toEqual({ ok: false, errors: [{ pointer: '', message: 'the file is empty: expected a JSON object', line: 1, column: 1 }] });
  });

  it('reports a file of only white space, or only a byte order mark, as empty', () => {
    expect(onlyError(' \n\t\r\n')).toMatchObject({ message: 'the file is empty: expected a JSON object' });
    expect(onlyError('\uFEFF')).toMatchObject({ message: 'the file is empty: expected a JSON object' });
  });
});

describe('validate: rules beyond the schema', () => {
  it('reports a duplicate key at its second occurrence, in any object', () => {
    const text = timeoutOf59.replace('"timeout": 59', '"timeout": 60,\n    "timeout": 90');
    expect(validate(text).errors).toEqual([
      { pointer: '/auto/timeout', message: 'duplicate key "timeout": first defined at line 7, column 5', line: 8, column: 5 },
    ]);
  });

  it('reports a duplicate top-level key even when both values are valid', () => {
    const text = configText({}, minimalConfig).replace('"project": "site",', '"project": "site",\n  "project": "site",');
    expect(onlyError(text)).toEqual({ pointer: '/project', message: 'duplicate key "project": first defined at line 3, column 3', line: 4, column: 3 });
  });

  it('reports every repeat of a form slug, naming the slug and its first use', () => {
    const text = configText({ '/forms': [{ slug: 'contact' }, { slug: 'quote' }, { slug: 'contact' }, { slug: 'contact' }] });
    const first = positionIn(text, '"contact"');
    const where = `first used at /forms/0/slug (line ${first.line}, column ${first.column})`;
    expect(validate(text).errors).toEqual([
      { pointer: '/forms/2/slug', message: `duplicate form slug "contact": ${where}`, ...positionIn(text, '"contact"', 2) },
      { pointer: '/forms/3/slug', message: `duplicate form slug "contact": ${where}`, ...positionIn(text, '"contact"', 3) },
    ]);
  });

  it('reports a hostname repeated in another environment, in another case, at the later listing', () => {
    const text = configText({ '/domains': { staging: ['beta.example.com'], production: ['BETA.example.com'] } });
    expect(validate(text).errors).toEqual([
      {
        pointer: '/domains/production/0',
        message: `duplicate hostname "BETA.example.com": first listed at /domains/staging/0 (line ${positionIn(text, '"beta').line}, column 7) (as "beta.example.com"; hostnames are case-insensitive)`,
        ...positionIn(text, '"BETA'),
      },
    ]);
  });

  it('leaves values of the wrong type to the schema', () => {
    const text = configText({ '/forms': [{ slug: 1 }, { slug: 1 }], '/domains/production': [1, 1] });
    expect(validate(text).errors.map((error) => error.message)).not.toContain(expect.stringContaining('duplicate'));
  });
});

describe('validate: speed', () => {
  it('checks 1,000 forms and 1,000 hostnames, valid or all wrong, reporting every error', () => {
    const forms = Array.from({ length: 1000 }, (_, index) => ({ slug: `form-${index}`, name: `Form ${index}` }));
    const hostnames = Array.from({ length: 1000 }, (_, index) => `site-${index}.example.com`);
    const valid = configText({ '/forms': forms, '/domains': { production: hostnames } });
    const invalid = configText({
      '/forms': forms.map((form) => ({ ...form, slug: form.slug.toUpperCase(), extra: 1 })),
      '/domains': { production: [...hostnames.map((hostname) => `-${hostname}`), ...hostnames, ...hostnames] },
    });
    // How long this takes is measured by the bench (`npm run bench`, the validate rows).
    expect(validate(valid).ok).toBe(true);
    expect(validate(invalid).errors).toHaveLength(4000);
  });
});
