import type { DeployLimits } from '../../deploys/deploy-limits.js';
import type { DiskLimits } from './disk-watch.js';
import type { EgressProxy } from './egress-proxy.js';
import type { SandboxChoice } from './sandbox.js';

/** What the build queue asks of the runner: one commit of one project, built once. */
export interface BuildRequest {
  readonly projectId: string;
  /** `https://…`, or a `file://` URL or absolute path when `allowLocalRepos`. */
  readonly repoUrl: string;
  readonly repoToken?: string | undefined;
  /** The full commit id to build: exactly this commit is fetched. */
  readonly commit: string;
  readonly branch: string;
  /** `static`, `astro`, `next` or `unknown`, as in service.json. */
  readonly framework: string;
  /** A folder of this build under the data dir; created, must be empty. The caller removes it. */
  readonly workDir: string;
  /** For the whole build: fetch, install, build, output check. */
  readonly timeoutMs: number;
  readonly sandbox: SandboxChoice;
  readonly allowLocalRepos: boolean;
  readonly signal: AbortSignal;
  onLog(chunk: string): void;
  /**
   * The project's git cache (a bare repository), shared by its builds:
   * `<dataDir>/builds/git/<projectId>.git`. Without it the build fetches into its workDir.
   */
  readonly cacheDir?: string | undefined;
  /** Whether an https repository may resolve to a private address (`--allow-private-targets`). */
  readonly allowPrivateTargets?: boolean | undefined;
  /** Folders the build must not see, checked against the sandbox's read-only roots (the data dir). */
  readonly privateDirs?: readonly string[] | undefined;
  /** Memory cap (`--build-memory`), default 2 GiB. */
  readonly memoryBytes?: number | undefined;
  /** Output limits, default the deploy limits (20,000 files, 1 GiB, 100 MiB per file). */
  readonly outputLimits?: DeployLimits | undefined;
  /** Whether installing dependencies may use the network (default true: npm's registry). */
  readonly network?: boolean | undefined;
  /**
   * The way out for the install step in the sandbox: the server's egress proxy, which
   * reaches only what the address policy allows. Without it, a sandboxed install has no network.
   */
  readonly egress?: EgressProxy | undefined;
  /**
   * The build's disk cap and the free space kept (default 2 GiB, 1 GiB, measured every
   * second): past either the build is stopped, saying which (docs/hosting.md, "Disk").
   */
  readonly disk?: DiskLimits | undefined;
  /** File systems besides the build folder's whose free space the watermark keeps (the data dir). */
  readonly watchedDirs?: readonly { readonly name: string; readonly path: string }[] | undefined;
  /** Past this after a build, the project's git cache is removed (default 1 GiB). */
  readonly gitCacheBytes?: number | undefined;
  /**
   * Whether the repository's own build step may use the network (`--build-network`, default
   * false): with it the build can reach whatever listens on the host, the database included.
   */
  readonly buildNetwork?: boolean | undefined;
}

export interface BuildResult {
  /** Absolute, inside workDir. */
  readonly outputDir: string;
}
