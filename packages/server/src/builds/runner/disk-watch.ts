import { formatBytes } from '../../lib/format-bytes.js';
import { folderBytes, freeBytes } from './disk-usage.js';

/** A build's disk limits (docs/hosting.md, "Disk"). */
export interface DiskLimits {
  /** What one build may use: its folder and what its fetch adds to the git cache (`--build-disk`). */
  readonly diskBytes: number;
  /** Free space kept on every file system watched (`--build-min-free`). */
  readonly minFreeBytes: number;
  /** How often the disk is measured while the build runs. */
  readonly intervalMs: number;
}

export interface WatchedDisk {
  /** What counts as the build's: its folder, and the git cache it fetches into. */
  readonly folders: readonly string[];
  /** The bytes that were in `folders` before the build (the cache): not the build's. */
  readonly baselineBytes: number;
  /** The file systems whose free space must stay above the watermark, each named for the reason. */
  readonly fileSystems: readonly { readonly name: string; readonly path: string }[];
}

export interface DiskMeasure {
  folderBytes(folders: readonly string[]): Promise<number>;
  freeBytes(path: string): Promise<number>;
}

const measuredByTheSystem: DiskMeasure = { folderBytes, freeBytes };

/**
 * Measures a running build's disk every `intervalMs` (one measure at a time, the next one
 * `intervalMs` after the last ended) and calls `onExceeded` once, with the reason, when the
 * build passes its cap or a watched file system passes the watermark; the caller then kills
 * the build. A measure that fails (a folder removed meanwhile) is skipped.
 */
export class DiskWatch {
  private reason: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private measuring: Promise<string | null> | null = null;
  private stopped = false;

  constructor(
    private readonly limits: DiskLimits,
    private readonly watched: WatchedDisk,
    private readonly onExceeded: (reason: string) => void,
    private readonly measure: DiskMeasure = measuredByTheSystem,
  ) {}

  /** Why the build was stopped for its disk, once it was. */
  get exceeded(): string | null {
    return this.reason;
  }

  start(): void {
    this.schedule();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.measuring;
  }

  /** Measures now; the reason when the build is past a limit (the first one found stays). */
  check(): Promise<string | null> {
    this.measuring ??= this.measureOnce().finally(() => (this.measuring = null));
    return this.measuring;
  }

  private schedule(): void {
    if (this.stopped || this.reason !== null) return;
    this.timer = setTimeout(() => {
      void this.check().then(() => this.schedule());
    }, this.limits.intervalMs);
    this.timer.unref();
  }

  private async measureOnce(): Promise<string | null> {
    if (this.reason !== null) return this.reason;
    const found = await this.findExcess().catch(() => null);
    if (found !== null && this.reason === null) {
      this.reason = found;
      this.onExceeded(found);
    }
    return this.reason;
  }

  private async findExcess(): Promise<string | null> {
    const { limits, watched, measure } = this;
    for (const fileSystem of watched.fileSystems) {
      const free = await measure.freeBytes(fileSystem.path);
      if (free < limits.minFreeBytes) return lowOnSpace(fileSystem.name, fileSystem.path, free, limits.minFreeBytes);
    }
    const used = (await measure.folderBytes(watched.folders)) - watched.baselineBytes;
    if (used > limits.diskBytes) return `the build used ${formatBytes(used)} of disk, more than its cap of ${formatBytes(limits.diskBytes)} (--build-disk)`;
    return null;
  }
}

/** The reason a build is stopped (or not started) when a file system is past the watermark. */
export function lowOnSpace(name: string, path: string, free: number, minFree: number): string {
  return `the disk is nearly full: the file system of ${name} (${path}) has ${formatBytes(free)} free, less than the ${formatBytes(minFree)} kept free (--build-min-free)`;
}
