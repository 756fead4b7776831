import { describe, expect, it } from 'vitest';
import { tooDeeplyNested } from './nesting-depth.js';

describe('how deep a service.json may nest', () => {
  it('lets a file nest up to the limit', () => {
    expect(tooDeeplyNested(`${'['.repeat(64)}${']'.repeat(64)}`)).toBeNull();
    expect(tooDeeplyNested('{"forms":[{"slug":"a"},{"slug":"b"}],"pinpoints":{"redact":[".x"]}}', 3)).toBeNull();
  });

  it('names the first level too deep by its pointer and its opening bracket, keys escaped and indexes counted', () => {
    expect(tooDeeplyNested('{"forms":[{"slug":"a"},{"x":{"y":[]}}]}', 3)).toEqual({ pointer: '/forms/1/x', message: 'is nested more than 3 levels deep; a service.json needs only a few', line: 1, column: 29 });
    expect(tooDeeplyNested('{\n  "a/b~c": [[\n    {}]]}', 3)).toMatchObject({ pointer: '/a~1b~0c/0/0', line: 3, column: 5 });
  });

  it('reads brackets inside strings, and escaped quotes, as text', () => {
    expect(tooDeeplyNested('{"a":"[[[[{{{{\\"[[[["}', 2)).toBeNull();
    expect(tooDeeplyNested('{"k\\"[":{"m":{}}}', 2)).toMatchObject({ pointer: '/k"[/m' });
  });

  it('scans a hundred thousand levels without recursing', () => {
    expect(tooDeeplyNested(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toMatchObject({ pointer: `${'/0'.repeat(64)}`, line: 1, column: 65 });
  });
});
