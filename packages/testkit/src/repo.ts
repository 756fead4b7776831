import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository's root, found from this file wherever it runs: as TypeScript under
 * `packages/testkit/src` (Vitest) or compiled under `packages/testkit/dist`.
 */
export const repoRoot: string = findRoot(dirname(fileURLToPath(import.meta.url)));

/** The real `svc` binary (it runs the built packages, `packages/*\/dist`). */
export const svcBin: string = join(repoRoot, 'packages', 'cli', 'bin', 'svc.js');

function findRoot(start: string): string {
  for (let directory = start; ; ) {
    if (existsSync(join(directory, 'packages', 'cli', 'bin', 'svc.js')) && existsSync(join(directory, 'package.json'))) return directory;
    const parent = dirname(directory);
    if (parent === directory) throw new Error(`cannot find the repository root above ${start}`);
    directory = parent;
  }
}
