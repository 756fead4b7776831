import type { ConfigError, Position } from './config-error.js';
import type { JsonDocument } from './json-document.js';
import { childPointer } from './json-pointer.js';

const environments = ['production', 'staging', 'development'] as const;

/**
 * Rules the schema cannot state: form slugs unique within the project, and each hostname
 * listed once across all of `domains` (case-insensitive). Reported at the second occurrence.
 * Values of the wrong type are skipped: the schema reports them.
 */
export function semanticErrors(document: JsonDocument): ConfigError[] {
  const config = asRecord(document.value);
  if (config === undefined) return [];
  return [...duplicateFormSlugs(config['forms'], document), ...duplicateHostnames(config['domains'], document)];
}

function duplicateFormSlugs(forms: unknown, document: JsonDocument): ConfigError[] {
  if (!Array.isArray(forms)) return [];
  const seen = new Map<string, string>();
  const errors: ConfigError[] = [];
  forms.forEach((form, index) => {
    const slug = asRecord(form)?.['slug'];
    if (typeof slug !== 'string') return;
    const pointer = childPointer(childPointer('/forms', index), 'slug');
    const first = seen.get(slug);
    if (first === undefined) seen.set(slug, pointer);
    else errors.push(duplicate(document, pointer, `duplicate form slug ${JSON.stringify(slug)}: first used at ${where(document, first)}`));
  });
  return errors;
}

function duplicateHostnames(domains: unknown, document: JsonDocument): ConfigError[] {
  const byEnvironment = asRecord(domains);
  if (byEnvironment === undefined) return [];
  const seen = new Map<string, { pointer: string; hostname: string }>();
  const errors: ConfigError[] = [];
  // In the order of the file, so that the second occurrence is the one reported.
  for (const environment of Object.keys(byEnvironment).filter(isEnvironment)) {
    const hostnames = byEnvironment[environment];
    if (!Array.isArray(hostnames)) continue;
    hostnames.forEach((hostname: unknown, index) => {
      if (typeof hostname !== 'string') return;
      const pointer = childPointer(childPointer('/domains', environment), index);
      const key = hostname.toLowerCase();
      const first = seen.get(key);
      if (first === undefined) {
        seen.set(key, { pointer, hostname });
        return;
      }
      const caseNote = first.hostname === hostname ? '' : ` (as ${JSON.stringify(first.hostname)}; hostnames are case-insensitive)`;
      errors.push(duplicate(document, pointer, `duplicate hostname ${JSON.stringify(hostname)}: first listed at ${where(document, first.pointer)}${caseNote}`));
    });
  }
  return errors;
}

function duplicate(document: JsonDocument, pointer: string, message: string): ConfigError {
  return { pointer, message, ...document.positionOf(pointer) };
}

function where(document: JsonDocument, pointer: string): string {
  const { line, column }: Position = document.positionOf(pointer);
  return `${pointer} (line ${line}, column ${column})`;
}

function isEnvironment(name: string): name is (typeof environments)[number] {
  return (environments as readonly string[]).includes(name);
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
