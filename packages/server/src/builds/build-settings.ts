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
  /** Whether the repository's build step has the network (`--build-network`; installing always does). */
  readonly network: boolean;
}

export const defaultBuildSettings: BuildSettings = { concurrency: 1, timeoutMs: 15 * 60_000, sandbox: 'auto', allowLocalRepos: false, leaseMs: 60_000, pollIntervalMs: 5_000, memoryBytes: 2 * 1024 ** 3, network: false };
