import { randomBytes } from 'node:crypto';

/** `name` with a random suffix, so suites sharing a database never collide. */
export const uniqueName = (name: string): string => `${name}-${randomBytes(3).toString('hex')}`;

/** A small HTML page titled and headed `text`: what a test deploys and then reads back. */
export const htmlPage = (text: string): string => `<!doctype html><html><head><title>${text}</title></head><body><h1>${text}</h1></body></html>`;

/**
 * An astro project whose build is `node build.mjs [args]` running `script`: dependency-free,
 * so `npm ci` works offline with its empty lock file (docs/hosting.md, "Builds").
 */
export function astroSite(script: string, args = ''): Record<string, string> {
  const build = args === '' ? 'node build.mjs' : `node build.mjs ${args}`;
  return {
    'package.json': JSON.stringify({ name: 'site', version: '1.0.0', private: true, scripts: { build } }),
    'package-lock.json': JSON.stringify({ name: 'site', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': { name: 'site', version: '1.0.0' } } }),
    'build.mjs': script,
  };
}
