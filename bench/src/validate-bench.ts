import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validate } from '@svc/config';
import { svcBin } from '@svc/testkit';

export interface ValidateFigures {
  readonly forms: number;
  readonly domains: number;
  readonly bytes: number;
  readonly runs: number;
  /** Wall time of `svc validate FILE --json`, node start included. */
  readonly medianMs: number;
  readonly minMs: number;
  /** `validate()` in process (schema compiled), median: the same document, and one where all 4,000 entries are wrong. */
  readonly libraryValidMs: number;
  readonly libraryInvalidMs: number;
}

/** A valid service.json with `forms` forms and `domains` hostnames spread over the three environments. */
export function largeServiceJson(forms: number, domains: number): string {
  const environments = ['production', 'staging', 'development'] as const;
  const hostnames: Record<string, string[]> = { production: [], staging: [], development: [] };
  for (let i = 0; i < domains; i++) hostnames[environments[i % 3]!]!.push(`site-${i}.clients.example.com`);
  return JSON.stringify(
    {
      $schema: 'https://svc.example.com/schema/service.json',
      workspace: 'agency',
      project: 'big-site',
      framework: 'astro',
      environments: { production: { branch: 'main' }, staging: { branch: 'staging' }, development: { branch: 'dev' } },
      forms: Array.from({ length: forms }, (_, i) => ({ slug: `form-${i}`, name: `Form number ${i}` })),
      domains: hostnames,
      pinpoints: { production: false, staging: true, development: true, redact: ['.secret', '#card-number'], storeIp: false },
      auto: { timeout: 600 },
    },
    null,
    2,
  );
}

/** Times `svc validate` on a large service.json (1,000 forms and 1,000 domains by default). */
export async function benchValidate(runs: number, forms = 1_000, domains = 1_000): Promise<ValidateFigures> {
  const directory = await mkdtemp(join(tmpdir(), 'svc-bench-validate-'));
  try {
    const file = join(directory, 'service.json');
    const text = largeServiceJson(forms, domains);
    await writeFile(file, text);
    const times: number[] = [];
    for (let run = 0; run < runs; run++) {
      const started = performance.now();
      const result = spawnSync(process.execPath, [svcBin, 'validate', file, '--json'], { encoding: 'utf8' });
      times.push(performance.now() - started);
      if (result.status !== 0) throw new Error(`svc validate exited with ${result.status}: ${result.stdout.slice(0, 500)}${result.stderr.slice(0, 500)}`);
    }
    times.sort((a, b) => a - b);
    const parsed = JSON.parse(text) as { forms: { slug: string; name: string }[]; domains: Record<string, string[]> };
    const invalid = JSON.stringify({
      ...parsed,
      forms: parsed.forms.map((form) => ({ ...form, slug: form.slug.toUpperCase(), extra: 1 })),
      domains: Object.fromEntries(Object.entries(parsed.domains).map(([environment, hostnames]) => [environment, hostnames.map((hostname) => `-${hostname}`)])),
    });
    validate(text); // compiles the schema once
    const median = (document: string): number => {
      const samples = Array.from({ length: runs }, () => {
        const started = performance.now();
        validate(document);
        return performance.now() - started;
      }).sort((a, b) => a - b);
      return samples[Math.floor(samples.length / 2)]!;
    };
    return {
      forms,
      domains,
      bytes: Buffer.byteLength(text),
      runs,
      medianMs: times[Math.floor(times.length / 2)]!,
      minMs: times[0]!,
      libraryValidMs: median(text),
      libraryInvalidMs: median(invalid),
    };
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}
