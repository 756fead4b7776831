import { parseHeaders, parseRedirects } from '@svc/protocol/site-rules';
import { describe, expect, it } from 'vitest';
import { CompiledSiteRules } from '../site-rules/compiled-site-rules.js';
import type { DeployFileRow } from '../store/schema.js';
import type { HeldDeploy } from './deploy-manifests.js';
import { answerPath } from './site-answer.js';

const encode = (text: string) => new TextEncoder().encode(text);

function deploy(paths: readonly string[], redirects: string, headers = ''): HeldDeploy {
  const files = new Map(paths.map((path) => [path, { deploy_id: 'dpl', path, sha256: path, size: 1 } satisfies DeployFileRow]));
  return { find: (path) => Promise.resolve(files.get(path)), rules: new CompiledSiteRules({ redirects: parseRedirects(encode(redirects)), headers: parseHeaders(encode(headers)) }) };
}

async function answer(held: HeldDeploy, url: string): Promise<string> {
  const [path, search = ''] = url.split('?') as [string, string?];
  const { answer: found, headers } = await answerPath(held, path, search);
  const shown = found.kind === 'file' ? `${found.status} ${found.file.path}` : found.kind === 'redirect' ? `${found.status} → ${found.location}` : 'service 404';
  return headers.length === 0 ? shown : `${shown} ${headers.map(([name, value]) => `${name}=${value}`).join(' ')}`;
}

describe('what a deploy answers a path with', () => {
  const site = deploy(
    ['index.html', 'about.html', 'docs/index.html', 'app/index.html', '404.html', '_redirects', '_headers'],
    ['/about /elsewhere 301', '/docs/* /manual/:splat 302', '/forced /about 200!', '/index.html /home 301!', '/ghost /no-such-file.html 200', '/app/* /app/ 200', '/escape/* /:splat 200'].join('\n'),
    '/*\n  X-All: 1\n/app/*\n  X-App: 1\n',
  );

  it.each([
    // A file answers (clean URLs and directories too), so rules without ! do not apply.
    ['/about', '200 about.html x-all=1'],
    ['/docs/', '200 docs/index.html x-all=1'],
    ['/docs', '200 docs/index.html x-all=1'],
    // No file: the first rule that matches.
    ['/docs/intro?x=1', '302 → /manual/intro?x=1'],
    ['/app/deep/route', '200 app/index.html x-all=1 x-app=1'],
    // ! applies over a file, even the one the path names itself.
    ['/index.html', '301 → /home'],
    ['/forced', '200 about.html x-all=1'],
    // A rewrite to no file is a miss: the deploy's 404.html.
    ['/ghost', '404 404.html x-all=1'],
    ['/nowhere', '404 404.html x-all=1'],
    // The rules files are no files of the site; a rewrite cannot name them either.
    ['/_redirects', '404 404.html x-all=1'],
    ['/escape/_headers', '404 404.html x-all=1'],
    // Paths that are not the site's never meet a rule.
    ['/docs/%2e%2e/secret', '404 404.html'],
    ['/.env', '404 404.html'],
  ])('%s → %s', async (url, expected) => {
    expect(await answer(site, url)).toBe(expected);
  });

  it('is the service\'s own 404 when the deploy has no 404.html', async () => {
    expect(await answer(deploy(['index.html'], ''), '/nowhere')).toBe('service 404');
    expect(await answer(deploy(['index.html'], '/gone/* /gone.html 404'), '/gone/page')).toBe('service 404');
    expect(await answer(deploy(['index.html', 'gone.html'], '/gone/* /gone.html 404'), '/gone/page')).toBe('404 gone.html');
    // /gone itself is answered by gone.html (a clean URL), which the rule does not shadow.
    expect(await answer(deploy(['index.html', 'gone.html'], '/gone/* /gone.html 404'), '/gone')).toBe('200 gone.html');
  });
});
