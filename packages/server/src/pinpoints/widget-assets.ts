import type { ServedAsset } from '../lib/served-asset.js';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface WidgetAssets {
  /** `/pinpoints.js`: revalidated every few minutes, so a new version reaches pages soon. */
  readonly widget: ServedAsset;
  /** The screenshot module, named by its content hash: cached for good. */
  readonly capture: ServedAsset & { readonly file: string };
}

interface AssetManifest {
  widget: { file: string };
  capture: { file: string };
}

/**
 * Reads the widget as `npm run build` made it (packages/pinpoints/dist). Null when it was
 * never built: the server then answers 503 for the script and says so once at start.
 */
export async function loadWidgetAssets(): Promise<WidgetAssets | null> {
  let directory: string;
  let manifest: AssetManifest;
  try {
    directory = join(dirname(createRequire(import.meta.url).resolve('@svc/pinpoints/package.json')), 'dist');
    manifest = JSON.parse(await readFile(join(directory, 'assets.json'), 'utf8')) as AssetManifest;
  } catch {
    return null;
  }
  const asset = async (file: string, cacheControl: string): Promise<ServedAsset> => {
    const body = await readFile(join(directory, file));
    return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`, cacheControl };
  };
  return {
    widget: await asset(manifest.widget.file, 'public, max-age=300'),
    capture: { ...(await asset(manifest.capture.file, 'public, max-age=31536000, immutable')), file: manifest.capture.file },
  };
}
