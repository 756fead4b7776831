import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { settingsPageNames } from '../operations/reserved-names.js';

/** Every path the settings area's sources name under `/settings/`, as written (`/settings/:workspace/members`, `/settings/assets/…`). */
function settingsPaths(): string[] {
  const folders = ['routes', 'views', '.'].map((folder) => new URL(`./${folder}/`, import.meta.url));
  const paths: string[] = [];
  for (const folder of folders) {
    for (const file of readdirSync(folder).filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.test.ts'))) {
      const text = readFileSync(new URL(file, folder), 'utf8');
      for (const match of text.matchAll(/[`'"](\/settings\/[^`'"\s?]*)/g)) paths.push(match[1]!);
    }
  }
  return paths;
}

describe('names of workspaces and projects that the settings area reserves', () => {
  it('hold every fixed segment a settings path has where a workspace or project name would be', () => {
    const segments = new Set<string>();
    for (const path of settingsPaths()) {
      const [, , first, second] = path.split('/');
      // /settings/{fixed}… shadows a workspace; /settings/:workspace/{fixed} shadows a project.
      if (first && /^[a-z][a-z-]*$/.test(first)) segments.add(first);
      if ((first === ':workspace' || first?.startsWith('${')) && second && /^[a-z][a-z-]*$/.test(second)) segments.add(second);
    }
    expect(segments.size).toBeGreaterThanOrEqual(4);
    expect([...segments].filter((segment) => !settingsPageNames.includes(segment))).toEqual([]);
  });
});
