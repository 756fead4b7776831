// Builds the widget into dist/ (docs/pinpoints.md): `pinpoints.js`, the script pages load,
// and the screenshot module it imports on first use, named by its content hash so it can
// be cached for good. The build fails when the widget outgrows its budget.
import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = dirname(fileURLToPath(import.meta.url));
const dist = join(root, 'dist');
/** The widget's budget before the screenshot code, gzipped. */
const widgetBudgetBytes = 30 * 1024;
const common = { bundle: true, minify: true, write: false, target: ['chrome100', 'firefox100', 'safari15'], legalComments: 'none', logLevel: 'warning' };

const capture = await build({ ...common, entryPoints: [join(root, 'src/capture.ts')], format: 'esm' });
const captureCode = capture.outputFiles[0].contents;
const captureFile = `pinpoints-capture.${createHash('sha256').update(captureCode).digest('hex').slice(0, 16)}.js`;

const widget = await build({
  ...common,
  entryPoints: [join(root, 'src/widget.ts')],
  format: 'iife',
  define: { PINPOINTS_CAPTURE_FILE: JSON.stringify(captureFile) },
});
const widgetCode = widget.outputFiles[0].contents;
const gzipped = gzipSync(widgetCode).length;
if (gzipped > widgetBudgetBytes) throw new Error(`pinpoints.js is ${gzipped} bytes gzipped, over its budget of ${widgetBudgetBytes}`);

await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });
await writeFile(join(dist, 'pinpoints.js'), widgetCode);
await writeFile(join(dist, captureFile), captureCode);
const assets = {
  widget: { file: 'pinpoints.js', bytes: widgetCode.length, gzipBytes: gzipped },
  capture: { file: captureFile, bytes: captureCode.length, gzipBytes: gzipSync(captureCode).length },
};
await writeFile(join(dist, 'assets.json'), `${JSON.stringify(assets, null, 2)}\n`);
