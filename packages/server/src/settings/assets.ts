import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

export interface Asset {
  readonly path: string;
  readonly body: Buffer;
  readonly contentType: string;
  readonly etag: string;
}

export interface SettingsAssets {
  readonly css: Asset;
  readonly js: Asset;
}

/** The stylesheet and script ship beside the code: `packages/server/assets/settings/`. */
const assetsRoot = fileURLToPath(new URL('../../assets/settings/', import.meta.url));

/**
 * Loads the two files once at start and names each by its content hash, so pages can link
 * them with a year of caching and a new release is fetched at once. Two small files do not
 * need a static-file plugin.
 */
export async function loadSettingsAssets(): Promise<SettingsAssets> {
  const load = async (name: string, extension: string, contentType: string): Promise<Asset> => {
    const body = await readFile(`${assetsRoot}${name}.${extension}`);
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
    return { path: `/settings/assets/${name}.${hash}.${extension}`, body, contentType, etag: `"${hash}"` };
  };
  return { css: await load('app', 'css', 'text/css; charset=utf-8'), js: await load('app', 'js', 'text/javascript; charset=utf-8') };
}
