// Keeps package.json, the export surface and the README in step with the code.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WEBHOOK_VERIFICATION_ERROR_CODES } from './errors.js';
import * as nodeBuild from './index.js';
import * as webBuild from './web.js';

const packageDir = dirname(dirname(fileURLToPath(import.meta.url)));
const pkg = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  exports: Record<string, Record<string, string>>;
};
const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');

const WEB_API = [
  'DEFAULT_TOLERANCE_SECONDS',
  'WEBHOOK_DELIVERY_HEADER',
  'WEBHOOK_EVENT_HEADER',
  'WEBHOOK_EVENT_ID_HEADER',
  'WEBHOOK_SIGNATURE_HEADER',
  'WEBHOOK_TEST_HEADER',
  'WEBHOOK_VERIFICATION_ERROR_CODES',
  'WebhookVerificationError',
  'parseSignatureHeader',
  'signAsync',
  'verifyAsync',
];

describe('package', () => {
  it('has no runtime dependencies', () => {
    expect(Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies, ...pkg.optionalDependencies })).toEqual([]);
  });

  it('puts the "source" condition first in every export, and every target matches a source file', () => {
    for (const [entry, conditions] of Object.entries(pkg.exports)) {
      expect(Object.keys(conditions)[0], entry).toBe('source');
      const source = conditions.source ?? '';
      expect(existsSync(join(packageDir, source)), source).toBe(true);
      for (const [condition, target] of Object.entries(conditions)) {
        if (condition === 'source') continue;
        const stem = target.replace(/^\.\/dist\//, '').replace(/\.d\.ts$|\.js$/, '');
        expect(existsSync(join(packageDir, 'src', `${stem}.ts`)), `${entry} ${condition} → ${target}`).toBe(true);
      }
    }
  });

  it('sends Node.js to the node build and every other runtime to the web build', () => {
    expect(pkg.exports['.']).toEqual({
      source: './src/index.ts',
      types: './dist/index.d.ts',
      node: './dist/index.js',
      default: './dist/web.js',
    });
    expect(pkg.exports['./web']).toMatchObject({ source: './src/web.ts', default: './dist/web.js' });
  });

  it('exports exactly the documented API', () => {
    expect(Object.keys(webBuild).sort()).toEqual([...WEB_API].sort());
    expect(Object.keys(nodeBuild).sort()).toEqual([...WEB_API, 'sign', 'verify'].sort());
    expect(nodeBuild.WebhookVerificationError).toBe(webBuild.WebhookVerificationError);
  });

  it('documents every export and every error code in the README', () => {
    for (const name of Object.keys(nodeBuild)) expect(readme, name).toContain(name);
    for (const code of WEBHOOK_VERIFICATION_ERROR_CODES) expect(readme, code).toContain(`| \`${code}\` |`);
    for (const header of ['x-service-signature', 'x-service-event', 'x-service-event-id', 'x-service-delivery']) {
      expect(readme, header).toContain(`\`${header}\``);
    }
  });

  it('publishes the header names the service sends', () => {
    expect(nodeBuild).toMatchObject({
      WEBHOOK_SIGNATURE_HEADER: 'x-service-signature',
      WEBHOOK_EVENT_HEADER: 'x-service-event',
      WEBHOOK_EVENT_ID_HEADER: 'x-service-event-id',
      WEBHOOK_DELIVERY_HEADER: 'x-service-delivery',
      WEBHOOK_TEST_HEADER: 'x-service-test',
      DEFAULT_TOLERANCE_SECONDS: 300,
    });
  });
});
