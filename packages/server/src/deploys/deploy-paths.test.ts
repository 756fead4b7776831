import { describe, expect, it } from 'vitest';
import { deployPathProblem } from './deploy-paths.js';

describe('the path of a deploy file', () => {
  it.each(['index.html', 'assets/app.3f9a1c2b.js', '_next/static/chunks/main.js', 'café/menü.html', '.well-known/security.txt'])('takes %s', (path) => {
    expect(deployPathProblem(path)).toBeNull();
  });

  it.each([
    ['', 'must be 1 to 1024 characters'],
    ['/etc/passwd', 'must be relative (no leading /)'],
    ['../outside', 'must not have empty, . or .. segments'],
    ['a/./b', 'must not have empty, . or .. segments'],
    ['a//b', 'must not have empty, . or .. segments'],
    ['dir/', 'must not have empty, . or .. segments'],
    ['a\\b', 'must not hold control characters or backslashes'],
    ['a\u0000b', 'must not hold control characters or backslashes'],
    ['x'.repeat(1025), 'must be 1 to 1024 characters'],
    ['.npmrc', 'is never deployed: names starting with "." are never published, except the .well-known folder'],
    ['.git/config', 'is never deployed: names starting with "." are never published, except the .well-known folder'],
    ['assets/.env.production', 'is never deployed: names starting with "." are never published, except the .well-known folder'],
    ['lib/node_modules/x/index.js', 'is never deployed: node_modules is never published'],
    ['service.json', 'is never deployed: service.json is never published'],
    ['.svc/svc.db', "is never deployed: svc's own state is never published"],
  ])('refuses %j: %s', (path, problem) => {
    expect(deployPathProblem(path)).toBe(problem);
  });
});
