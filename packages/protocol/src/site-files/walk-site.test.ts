import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { selectSiteFiles } from './skip-rules.js';
import { walkSite } from './walk-site.js';

describe('walking a site folder', () => {
  let root: string;
  let outside: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'svc-site-'));
    outside = await mkdtemp(join(tmpdir(), 'svc-outside-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  });
  const write = async (files: Record<string, string>) => {
    for (const [path, text] of Object.entries(files)) {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    }
  };

  it('lists what a deploy takes with sizes, skips by the same rules as a list of paths, and writes nothing', async () => {
    const tree = {
      'index.html': '<h1>Home</h1>',
      'about/index.html': '<h1>About</h1>',
      '.npmrc': '//registry.npmjs.org/:_authToken=npm_secret',
      '.env.local': 'SECRET=1',
      '.well-known/security.txt': 'Contact: mailto:security@example.com',
      'node_modules/x/index.js': 'x',
      'service.json': '{}',
      '.svcignore': 'drafts/\n',
      'drafts/wip.html': 'wip',
      'state/credentials.json': '{"token":"svc_…"}',
    };
    await write(tree);
    const before = (await readdir(root, { recursive: true })).sort();
    const walked = await walkSite(root, { stateFolders: [join(root, 'state'), '/elsewhere/svc'] });
    expect(walked.files.map(({ path, size }) => ({ path, size }))).toEqual([
      { path: '.well-known/security.txt', size: 36 },
      { path: 'about/index.html', size: 14 },
      { path: 'index.html', size: 13 },
    ]);
    expect(walked.files[2]!.absolute).toBe(join(root, 'index.html'));
    expect(walked.skipped).toEqual(selectSiteFiles(Object.keys(tree), { svcignore: tree['.svcignore'], stateFolders: ['state'] }).skipped);
    expect((await readdir(root, { recursive: true })).sort()).toEqual(before);
  });

  it('follows a link to a file inside the folder and skips links to folders, outside or to nothing', async () => {
    await write({ 'index.html': 'home', 'real/page.html': 'page' });
    await writeFile(join(outside, 'secret.txt'), 'secret');
    await symlink(join(root, 'real/page.html'), join(root, 'alias.html'));
    await symlink(join(outside, 'secret.txt'), join(root, 'leak.txt'));
    await symlink(join(root, 'real'), join(root, 'loop'));
    await symlink(join(root, 'gone.html'), join(root, 'dangling.html'));
    const walked = await walkSite(root);
    expect(walked.files.map((file) => file.path)).toEqual(['alias.html', 'index.html', 'real/page.html']);
    expect(walked.skipped).toEqual([
      { path: 'dangling.html', reason: 'symlink' },
      { path: 'leak.txt', reason: 'symlink' },
      { path: 'loop/', reason: 'symlink' },
    ]);
  });
});
