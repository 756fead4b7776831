import { dirname } from 'node:path';

/** The memory cap of a build unless configured: 2 GiB (`--build-memory`). */
export const defaultBuildMemoryBytes = 2 * 1024 ** 3;

export interface BuildEnvironmentOptions {
  /** HOME as the build sees it (a folder of this build). */
  readonly home: string;
  /** TMPDIR as the build sees it. */
  readonly tmp: string;
  readonly memoryBytes: number;
  /** The node binary builds run with (the server's own). */
  readonly nodeExecutable?: string;
}

/**
 * The complete environment of a build, made from nothing: never a copy of the server's
 * (which holds its database URL, encryption key and tokens). `PATH` (node's folder first),
 * a `HOME` and `TMPDIR` of the build, `CI=true`, `NODE_ENV=production`, `LANG`, and the
 * memory cap for node as `NODE_OPTIONS=--max-old-space-size` (docs/hosting.md). npm's
 * cache is `$HOME/.npm`, so it stays inside the build's folder.
 */
export function buildEnvironment(options: BuildEnvironmentOptions): Record<string, string> {
  const nodeDir = dirname(options.nodeExecutable ?? process.execPath);
  const system = ['/usr/local/bin', '/usr/bin', '/bin'];
  const heapMiB = Math.max(64, Math.floor((options.memoryBytes * 0.75) / 1024 ** 2));
  return {
    PATH: [nodeDir, ...system.filter((dir) => dir !== nodeDir)].join(':'),
    HOME: options.home,
    TMPDIR: options.tmp,
    CI: 'true',
    NODE_ENV: 'production',
    LANG: 'C.UTF-8',
    NODE_OPTIONS: `--max-old-space-size=${heapMiB}`,
  };
}
