import { describe, expect, it } from 'vitest';
import { neverDeployed, selectSiteFiles, SkipRules } from './skip-rules.js';

describe('the rules of what a deploy never uploads', () => {
  it('skips every name starting with a dot, at any depth, except the root .well-known folder', () => {
    const selected = selectSiteFiles([
      'index.html',
      '.npmrc',
      '.env',
      '.env.production',
      '.git/config',
      '.github/workflows/ci.yml',
      'assets/.DS_Store',
      'blog/.htaccess',
      '.well-known/security.txt',
      '.well-known/.secret',
      'blog/.well-known/x.txt',
    ]);
    expect(selected).toEqual({
      files: ['.well-known/security.txt', 'index.html'],
      skipped: [
        { path: '.env', reason: 'hidden' },
        { path: '.env.production', reason: 'hidden' },
        { path: '.git/', reason: 'hidden' },
        { path: '.github/', reason: 'hidden' },
        { path: '.npmrc', reason: 'hidden' },
        { path: '.well-known/.secret', reason: 'hidden' },
        { path: 'assets/.DS_Store', reason: 'hidden' },
        { path: 'blog/.htaccess', reason: 'hidden' },
        { path: 'blog/.well-known/', reason: 'hidden' },
      ],
    });
  });

  it('skips node_modules and service.json at any depth, and svc state, each folder once', () => {
    const selected = selectSiteFiles(['index.html', 'node_modules/a/index.js', 'node_modules/b/index.js', 'sub/node_modules/c.js', 'service.json', 'app/service.json', '.svc/svc.db', 'deploy-state/credentials.json'], {
      stateFolders: ['deploy-state/'],
    });
    expect(selected).toEqual({
      files: ['index.html'],
      skipped: [
        { path: '.svc/', reason: 'svc_state' },
        { path: 'app/service.json', reason: 'service_json' },
        { path: 'deploy-state/', reason: 'svc_state' },
        { path: 'node_modules/', reason: 'node_modules' },
        { path: 'service.json', reason: 'service_json' },
        { path: 'sub/node_modules/', reason: 'node_modules' },
      ],
    });
  });

  it('applies .svcignore in gitignore syntax, without bringing back what the fixed rules skip', () => {
    const svcignore = '# drafts stay here\ndrafts/\n*.psd\n/notes.txt\n!.env\n!keep.psd\n';
    const selected = selectSiteFiles(['index.html', 'drafts/a.html', 'img/logo.psd', 'keep.psd', 'notes.txt', 'sub/notes.txt', '.env'], { svcignore });
    expect(selected).toEqual({
      files: ['index.html', 'keep.psd', 'sub/notes.txt'],
      skipped: [
        { path: '.env', reason: 'hidden' },
        { path: 'drafts/', reason: 'svcignore' },
        { path: 'img/logo.psd', reason: 'svcignore' },
        { path: 'notes.txt', reason: 'svcignore' },
      ],
    });
  });

  it('answers entry by entry for a walk that does not enter skipped folders', () => {
    const rules = new SkipRules({ svcignore: 'drafts/' });
    expect(rules.entry('.well-known', true)).toBeNull();
    expect(rules.entry('.well-known', false)).toBe('hidden');
    expect(rules.entry('drafts', true)).toBe('svcignore');
    expect(rules.entry('drafts', false)).toBeNull();
    expect(rules.entry('a/node_modules', true)).toBe('node_modules');
    expect(rules.file('a/b/.cache/x.js')).toEqual({ path: 'a/b/.cache/', reason: 'hidden' });
    expect(rules.file('a/b/c.js')).toBeNull();
  });

  it('tells which declared paths no .svcignore could have allowed', () => {
    expect(neverDeployed('.npmrc')).toEqual({ path: '.npmrc', reason: 'hidden' });
    expect(neverDeployed('.git/HEAD')).toEqual({ path: '.git/', reason: 'hidden' });
    expect(neverDeployed('lib/node_modules/x.js')).toEqual({ path: 'lib/node_modules/', reason: 'node_modules' });
    expect(neverDeployed('service.json')).toEqual({ path: 'service.json', reason: 'service_json' });
    expect(neverDeployed('.well-known/assetlinks.json')).toBeNull();
    expect(neverDeployed('drafts/a.html')).toBeNull();
    expect(neverDeployed('a.b/c..d/e.')).toBeNull();
  });
});
