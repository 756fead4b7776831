import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

interface Generator {
  generatedFile: string;
  generateTypes(schema: object): Promise<string>;
  readSchema(): Promise<object>;
}

describe('service-config.generated.ts', () => {
  it('is what scripts/generate-types.mjs makes of the schema (run `npm run generate -w @svc/config` if not)', async () => {
    // A plain JavaScript module: imported by URL so that the type checker does not need its declarations.
    const generator = (await import(new URL('../scripts/generate-types.mjs', import.meta.url).href)) as Generator;
    const expected = await generator.generateTypes(await generator.readSchema());
    expect(await readFile(generator.generatedFile, 'utf8')).toBe(expected);
  });
});
