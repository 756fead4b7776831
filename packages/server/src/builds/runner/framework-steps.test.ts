import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { frameworkPlan } from './framework-steps.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function checkout(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-plan-'));
  dirs.push(dir);
  for (const [path, content] of Object.entries(files)) writeFileSync(join(dir, path), content);
  return dir;
}

describe('frameworkPlan', () => {
  it('deploys a static repository as it is', () => {
    expect(frameworkPlan('static', checkout({}))).toEqual({ steps: [], outputDir: '' });
  });

  it('builds astro into dist with npm ci when there is a lock file', () => {
    const plan = frameworkPlan('astro', checkout({ 'package.json': '{}', 'package-lock.json': '{}' }));
    expect(plan.outputDir).toBe('dist');
    expect(plan.steps.map((step) => [step.command, ...step.args].slice(0, 2).join(' '))).toEqual(['npm ci', 'npm run']);
    expect(plan.steps[0]?.args).toContain('--ignore-scripts');
    expect(plan.steps[0]?.args).toContain('--include=dev');
  });

  it('gives the network to installing only, and to the build step only when the operator allows it', () => {
    const files = { 'package.json': '{}', 'package-lock.json': '{}' };
    expect(frameworkPlan('astro', checkout(files)).steps.map((step) => step.network)).toEqual([true, false]);
    expect(frameworkPlan('astro', checkout(files), { buildNetwork: true }).steps.map((step) => step.network)).toEqual([true, true]);
  });

  it('builds next into out with npm install without a lock file', () => {
    const plan = frameworkPlan('next', checkout({ 'package.json': '{}' }));
    expect(plan.outputDir).toBe('out');
    expect(plan.steps[0]?.args[0]).toBe('install');
  });

  it('fails without package.json, for unknown and for anything else', () => {
    expect(() => frameworkPlan('astro', checkout({}))).toThrow(/no package.json/);
    expect(() => frameworkPlan('unknown', checkout({}))).toThrow(/set "framework"/);
    expect(() => frameworkPlan('hugo', checkout({}))).toThrow(/not one svc builds/);
  });
});
