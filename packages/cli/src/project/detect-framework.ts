import { readdir } from 'node:fs/promises';

export type Framework = 'next' | 'astro' | 'static' | 'unknown';
export const frameworks: readonly Framework[] = ['next', 'astro', 'static', 'unknown'];

/** `next.config.*` → next, `astro.config.*` → astro, an `index.html` → static, else unknown. */
export async function detectFramework(directory: string): Promise<Framework> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return 'unknown';
  }
  if (names.some((name) => name.startsWith('next.config.'))) return 'next';
  if (names.some((name) => name.startsWith('astro.config.'))) return 'astro';
  if (names.includes('index.html')) return 'static';
  return 'unknown';
}
