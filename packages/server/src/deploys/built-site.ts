import { createReadStream } from 'node:fs';
import { ServiceError } from '@svc/protocol';
import type { DeployFileEntry } from '@svc/protocol/api';
import { hashFile, walkSite } from '@svc/protocol/site-files';
import { siteEntriesReader } from '@svc/protocol/site-rules';
import { addWorkspaceContent } from '../store/queries/contents.js';
import type { Store } from '../store/store.js';
import type { DeployLimits } from './deploy-limits.js';
import { checkManifest, contentsToUpload } from './deploy-manifest.js';
import { siteRulesProblem } from './deploy-rules.js';

/** What storing a built site needs: the store, the deploy limits and a clock. */
export interface BuiltSiteStorage {
  readonly store: Pick<Store, 'db' | 'files'>;
  readonly options: { readonly deployLimits: DeployLimits };
  readonly now: () => number;
}

/**
 * What `svc deploy` does on a laptop, done by the server with a build's output folder
 * (docs/hosting.md, "Deploys from git"): the same walk and never-uploaded rules
 * (`walkSite` of @svc/protocol), the same limits (`checkManifest`), the same question of
 * which contents the workspace lacks (`contentsToUpload`), each missing content stored
 * and checked against its hash like an upload. Returns the deploy's file list.
 */
export async function storeBuiltSite(context: BuiltSiteStorage, workspaceId: string, folder: string): Promise<{ files: DeployFileEntry[]; bytes: number }> {
  const { files: entries } = await walkSite(folder);
  if (entries.length === 0) throw new ServiceError('validation_failed', 'the build\'s output folder is empty');
  if (!entries.some((entry) => entry.path === 'index.html')) {
    throw new ServiceError('validation_failed', 'the build\'s output has no index.html at its root, so the site would answer 404: check the framework in service.json');
  }
  // Rules that do not parse fail the build's deploy before anything is stored (_redirects:LINE: why).
  const problem = await siteRulesProblem(siteEntriesReader(entries));
  if (problem !== null) throw problem;
  const absolute = new Map(entries.map((entry) => [entry.path, entry.absolute]));
  const files: DeployFileEntry[] = [];
  for (const entry of entries) files.push({ path: entry.path, ...(await hashFile(entry.absolute)) });
  const bytes = checkManifest(context.options.deployLimits, files);
  const missing = new Set(await contentsToUpload(context.store, workspaceId, files));
  for (const file of files) {
    if (!missing.has(file.sha256)) continue;
    missing.delete(file.sha256);
    const staged = await context.store.files.stage(createReadStream(absolute.get(file.path) ?? '') as AsyncIterable<Uint8Array>);
    if (staged.sha256 !== file.sha256) {
      await staged.discard();
      throw new ServiceError('conflict', `${file.path} changed while it was deployed`);
    }
    await staged.commit();
    await addWorkspaceContent(context.store.db, workspaceId, staged.sha256, context.now());
  }
  return { files, bytes };
}
