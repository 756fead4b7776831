import type { SecretBox } from '../secrets/secret-box.js';
import type { DeployLimits } from '../deploys/deploy-limits.js';
import type { Store } from '../store/store.js';
import type { BuildSettings } from './build-settings.js';

/**
 * What the build worker works with (docs/hosting.md, "Deploys from git"): the store, the
 * server's key to open a repository's token, where sites answer, the settings of builds and
 * deploys, a clock. Narrow on purpose: the worker sees nothing else of the server.
 */
export interface BuildServices {
  readonly store: Store;
  readonly secrets: Pick<SecretBox, 'open'>;
  readonly urls: { readonly baseUrl: string };
  readonly options: {
    readonly dataDir: string;
    readonly allowPrivateTargets: boolean;
    readonly previewDomain: string;
    readonly deployLimits: DeployLimits;
    readonly builds: BuildSettings;
  };
  readonly now: () => number;
}
