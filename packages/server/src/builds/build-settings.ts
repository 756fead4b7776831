export type BuildSandbox = 'auto' | 'bwrap' | 'none';

/** Builds from git (docs/hosting.md, "Deploys from git"). */
export interface BuildSettings {
  /** Builds one instance runs at once (`--build-concurrency`). */
  readonly concurrency: number;
  /** A build running longer is killed with its process tree (`--build-timeout`). */
  readonly timeoutMs: number;
  readonly sandbox: BuildSandbox;
  /** `file://` URLs and local paths as repositories (`--allow-local-repos`; development and tests). */
  readonly allowLocalRepos: boolean;
  /** How long a running build stays with its instance unless renewed; past it, the build was abandoned. */
  readonly leaseMs: number;
  /** The build worker's safety-net poll for queued builds. */
  readonly pollIntervalMs: number;
  /** A build's memory cap (`--build-memory`). */
  readonly memoryBytes: number;
  /** Whether the repository's build step has the network (`--build-network`; installing always does, through the egress proxy). */
  readonly network: boolean;
  /** Where build folders and the projects' git caches live (`--build-dir`); null: `<data dir>/builds`. */
  readonly directory: string | null;
  /** A build's disk cap: its folder and what its fetch adds to the git cache (`--build-disk`). */
  readonly diskBytes: number;
  /** A build stops when the build folder's or the data dir's file system has less free (`--build-min-free`). */
  readonly minFreeBytes: number;
  /** Past this after a build, a project's git cache is removed (`--build-git-cache`). */
  readonly gitCacheBytes: number;
  /** Running and queued builds one workspace may have; more are refused (`--builds-per-workspace`). */
  readonly perWorkspace: number;
  /** How often a running build's disk is measured. */
  readonly diskCheckIntervalMs: number;
}

export const defaultBuildSettings: BuildSettings = {
  concurrency: 1,
  timeoutMs: 15 * 60_000,
  sandbox: 'auto',
  allowLocalRepos: false,
  leaseMs: 60_000,
  pollIntervalMs: 5_000,
  memoryBytes: 2 * 1024 ** 3,
  network: false,
  directory: null,
  diskBytes: 2 * 1024 ** 3,
  minFreeBytes: 1024 ** 3,
  gitCacheBytes: 1024 ** 3,
  perWorkspace: 10,
  diskCheckIntervalMs: 1_000,
};
