import { describe, expect, it } from 'vitest';
import { lookBeforeDns, rulesSummary, skippedSummary, uploadNote } from './deploy-text.js';

describe('what svc deploy tells people', () => {
  it('says "the rest already stored" only when some contents were stored before', () => {
    expect(uploadNote(3, 3)).toBe('all uploaded');
    expect(uploadNote(3, 1)).toBe('1 uploaded, the rest already stored');
    expect(uploadNote(3, 0)).toBe('nothing uploaded: every file was already stored');
  });

  it('names what was skipped, grouped by why, and points at --dry-run when it names only some', () => {
    expect(skippedSummary([])).toBeNull();
    expect(skippedSummary([{ path: '.env', reason: 'hidden' }, { path: 'drafts/', reason: 'svcignore' }, { path: 'outside.txt', reason: 'symlink' }])).toBe(
      'Skipped 3: .env (never uploaded); drafts/ (listed in .svcignore); outside.txt (links not followed)',
    );
    const many = Array.from({ length: 8 }, (_, index) => ({ path: `.file${index}`, reason: 'hidden' as const }));
    expect(skippedSummary(many)).toBe('Skipped 8: .file0, .file1, .file2, .file3, .file4, .file5 and 2 more (never uploaded). `svc deploy --dry-run` lists them all.');
  });

  it('shows how to reach a domain before its DNS: a Host header over HTTP, curl --resolve over HTTPS, and a hosts-file line', async () => {
    expect(await lookBeforeDns('http://www.client.test:8787', 'http://127.0.0.1:8787')).toBe(
      `(before DNS points www.client.test at the service: curl -H 'Host: www.client.test' http://127.0.0.1:8787/, or "127.0.0.1 www.client.test" in /etc/hosts)`,
    );
    expect(await lookBeforeDns('https://www.client.test', 'https://203.0.113.7')).toBe(
      '(before DNS points www.client.test at the service: curl --resolve www.client.test:443:203.0.113.7 https://www.client.test/, or "203.0.113.7 www.client.test" in /etc/hosts)',
    );
    expect(await lookBeforeDns('http://www.client.test', 'http://svc.localhost:8787')).toContain('"127.0.0.1 www.client.test" in /etc/hosts');
  });

  it('says what the rules files hold, only for the files there are', () => {
    expect(rulesSummary([{ path: 'index.html' }], { redirects: 0, headers: 0 })).toBeNull();
    expect(rulesSummary([{ path: '_redirects' }], { redirects: 1, headers: 0 })).toBe('Rules: _redirects 1 rule (applied, never served as files).');
    expect(rulesSummary([{ path: '_headers' }, { path: '_redirects' }], { redirects: 12, headers: 3 })).toBe('Rules: _redirects 12 rules, _headers 3 blocks (applied, never served as files).');
  });
});
