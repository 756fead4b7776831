import { ServiceError } from '@svc/protocol';
import { readSiteRules } from '@svc/protocol/site-rules';
import { setBounded } from '../lib/bounded-map.js';
import { CompiledSiteRules } from '../site-rules/compiled-site-rules.js';
import { storedRulesReader } from '../site-rules/stored-rules.js';
import type { FileStore } from '../store/files/file-store.js';
import { deployFiles, findDeployFile } from '../store/queries/deploys.js';
import type { DeployFileRow } from '../store/schema.js';
import type { Db } from '../store/store.js';

/** Deploys with more files than this are looked up file by file instead of held. */
const maxCachedFiles = 5_000;
/** Deploys held at once (most recently loaded). */
const maxCachedDeploys = 64;

/** A finished deploy as hosting holds it: its files, and its rules compiled once. */
export interface HeldDeploy {
  /** The deploy's file at `path` (a key of its list), if it has one. */
  find(path: string): Promise<DeployFileRow | undefined>;
  /** Its `_redirects` and `_headers`, compiled when the deploy was loaded (docs/hosting.md#redirects-and-headers). */
  readonly rules: CompiledSiteRules;
}

/**
 * The file lists of finished deploys, held in memory with their compiled rules: a finished
 * deploy never changes, so its list is read once (one query), its `_redirects` and
 * `_headers` parsed and compiled once, and every later request of it is answered without
 * either. A deploy made before rules existed whose rules do not parse is served without
 * them, as it was (every deploy since is refused such rules when it is finalised).
 */
export class DeployManifests {
  private readonly held = new Map<string, HeldDeploy>();
  private readonly loading = new Map<string, Promise<HeldDeploy>>();

  constructor(
    private readonly db: Db,
    private readonly files: Pick<FileStore, 'find'>,
  ) {}

  /** The deploy, held or loaded now (once, however many requests ask for it meanwhile). */
  deploy(deployId: string): Promise<HeldDeploy> {
    const held = this.held.get(deployId);
    if (held !== undefined) return Promise.resolve(held);
    let loading = this.loading.get(deployId);
    if (loading === undefined) {
      loading = this.load(deployId).finally(() => this.loading.delete(deployId));
      this.loading.set(deployId, loading);
    }
    return loading;
  }

  private async load(deployId: string): Promise<HeldDeploy> {
    const rows = await deployFiles(this.db, deployId, maxCachedFiles + 1);
    let find: (path: string) => Promise<DeployFileRow | undefined>;
    if (rows.length > maxCachedFiles) {
      find = (path) => findDeployFile(this.db, deployId, path);
    } else {
      const manifest = new Map(rows.map((row) => [row.path, row]));
      find = (path) => Promise.resolve(manifest.get(path));
    }
    const rules = await readSiteRules(storedRulesReader(this.files, async (path) => (await find(path))?.sha256)).then(
      (parsed) => new CompiledSiteRules(parsed),
      (error: unknown) => {
        // Rules that do not parse (a deploy made before rules existed) are left out; a
        // failure to read them is not, so that nothing is held without its rules.
        if (error instanceof ServiceError && error.code === 'validation_failed') return CompiledSiteRules.none;
        throw error;
      },
    );
    const held: HeldDeploy = { find, rules };
    setBounded(this.held, deployId, held, maxCachedDeploys);
    return held;
  }
}
