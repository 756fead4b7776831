import { lstat, realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { walkSite } from '@svc/protocol/site-files';
import type { DeployLimits } from '../../deploys/deploy-limits.js';
import { BuildError } from './build-error.js';

/**
 * The build's output folder, checked: it exists, is a real folder inside the checkout (not
 * a link out of it), and what a deploy would take of it fits the deploy limits
 * (docs/hosting.md: 20,000 files, 1 GiB, 100 MiB per file unless configured). Runs after
 * every process of the build has ended, so nothing changes it underneath.
 */
export async function checkOutput(checkoutDir: string, relativeOutput: string, limits: DeployLimits): Promise<string> {
  const outputDir = relativeOutput === '' ? checkoutDir : join(checkoutDir, relativeOutput);
  const shown = relativeOutput === '' ? 'the repository root' : `${relativeOutput}/`;
  const info = await lstat(outputDir).catch(() => null);
  if (info === null) throw new BuildError('output_missing', `the build wrote no ${shown}`);
  if (!info.isDirectory()) throw new BuildError('output_missing', `${shown} is not a folder`);
  const realCheckout = await realpath(checkoutDir);
  const realOutput = await realpath(outputDir);
  if (realOutput !== realCheckout && !realOutput.startsWith(`${realCheckout}${sep}`)) throw new BuildError('output_missing', `${shown} points outside the repository`);

  const { files } = await walkSite(outputDir);
  if (files.length === 0) throw new BuildError('output_missing', `${shown} holds no file to deploy`);
  if (files.length > limits.files) throw new BuildError('build_failed', `the output holds ${files.length} files, more than the ${limits.files} a deploy takes`);
  let bytes = 0;
  for (const file of files) {
    if (file.size > limits.fileBytes) throw new BuildError('build_failed', `${file.path} is ${file.size} bytes, more than the ${limits.fileBytes} a deployed file may be`);
    bytes += file.size;
  }
  if (bytes > limits.bytes) throw new BuildError('build_failed', `the output is ${bytes} bytes, more than the ${limits.bytes} a deploy takes`);
  return outputDir;
}
