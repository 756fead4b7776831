import { setBounded } from '../lib/bounded-map.js';
import { deployFiles, findDeployFile } from '../store/queries/deploys.js';
import type { DeployFileRow } from '../store/schema.js';
import type { Db } from '../store/store.js';

/** Deploys with more files than this are looked up file by file instead of held. */
const maxCachedFiles = 5_000;
/** Deploys held at once (most recently used). */
const maxCachedDeploys = 64;

/**
 * The file lists of finished deploys, held in memory: a finished deploy never changes, so
 * its list is read once (one query) and every later request of it is answered without one.
 */
export class DeployManifests {
  private readonly held = new Map<string, Map<string, DeployFileRow>>();

  constructor(private readonly db: Db) {}

  async find(deployId: string, path: string): Promise<DeployFileRow | undefined> {
    const manifest = this.held.get(deployId) ?? (await this.load(deployId));
    if (manifest === null) return findDeployFile(this.db, deployId, path);
    return manifest.get(path);
  }

  private async load(deployId: string): Promise<Map<string, DeployFileRow> | null> {
    const rows = await deployFiles(this.db, deployId, maxCachedFiles + 1);
    if (rows.length > maxCachedFiles) return null;
    const manifest = new Map(rows.map((row) => [row.path, row]));
    setBounded(this.held, deployId, manifest, maxCachedDeploys);
    return manifest;
  }
}
