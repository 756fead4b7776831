import type { Writable } from 'node:stream';

/**
 * `exported 1200 of 5000 submissions` on one line of stderr, redrawn at most every
 * `intervalMs`, and only when stderr is a terminal: piped or captured stderr gets nothing.
 */
export class ProgressLine {
  private lastDrawn = 0;
  private drawn = false;

  constructor(
    private readonly stream: Writable & { isTTY?: boolean },
    private readonly total: number,
    private readonly now: () => number = Date.now,
    private readonly intervalMs = 100,
    private readonly describe: (done: number, total: number) => string = (done, total) => `exported ${done} of ${total} submissions`,
  ) {}

  update(done: number): void {
    if (!this.stream.isTTY) return;
    const now = this.now();
    if (this.drawn && now - this.lastDrawn < this.intervalMs && done < this.total) return;
    this.lastDrawn = now;
    this.drawn = true;
    this.stream.write(`\r\u001b[2K${this.describe(done, this.total)}`);
  }

  /** Clears the line, so what follows starts on a clean one. */
  finish(): void {
    if (this.drawn) this.stream.write('\r\u001b[2K');
    this.drawn = false;
  }
}
