import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { inCi } from './ci.js';

/** Debian's Chromium, driven headless (the project's browser tests; docs/settings.md). */
export const chromiumPath = process.env['SVC_CHROMIUM'] ?? '/usr/bin/chromium';
const flags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];


/**
 * Whether the browser tests can run. Under CI=true a missing Chromium is a failure; elsewhere
 * the tests are skipped with a visible message.
 */
export function browserAvailable(): boolean {
  if (existsSync(chromiumPath)) return true;
  if (inCi()) throw new Error(`CI=true requires the browser tests to run, but there is no Chromium at ${chromiumPath} (apt-get install -y chromium)`);
  console.warn(`\n  ⚠ skipping the browser tests: no Chromium at ${chromiumPath} (apt-get install -y chromium)\n`);
  return false;
}

/**
 * Launches Chromium; `hostsToHere` lists domains whose names (and every name under them)
 * resolve to this machine, as if DNS pointed them here (e.g. `example.test`).
 */
export async function launchBrowser(options: { hostsToHere?: readonly string[] } = {}): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const rules = (options.hostsToHere ?? []).flatMap((domain) => [`MAP ${domain} 127.0.0.1`, `MAP *.${domain} 127.0.0.1`]);
  return chromium.launch({ executablePath: chromiumPath, args: rules.length === 0 ? flags : [...flags, `--host-resolver-rules=${rules.join(', ')}`] });
}

const axeSource = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

export interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: number;
}

/** Runs axe-core on the page; the serious and critical violations. */
export async function seriousAccessibilityViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ path: axeSource });
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: unknown[] }[] }> } }).axe;
    const result = await axe.run();
    return result.violations.map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help, nodes: violation.nodes.length }));
  });
  return violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
}
