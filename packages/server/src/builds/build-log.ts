import { LogRing, buildLogLimitBytes } from './runner/log-ring.js';

/** A build's output as it arrives, cut to its last 1 MiB in UTF-8 bytes (docs/hosting.md, "Build logs"). */
export class BuildLog {
  private readonly ring = new LogRing(buildLogLimitBytes);
  private changed = false;

  append(chunk: string): void {
    this.ring.append(chunk);
    this.changed = true;
  }

  /** The kept log. */
  get value(): string {
    return this.ring.text();
  }

  /** True once after each change: whether the stored copy is behind. */
  takeChanged(): boolean {
    const changed = this.changed;
    this.changed = false;
    return changed;
  }

  /** The last `count` lines, for `deploy.failed`. */
  lastLines(count: number): string {
    return this.ring.tail(count);
  }
}
