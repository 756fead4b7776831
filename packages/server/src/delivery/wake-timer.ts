/**
 * One timer for the earliest of the times it is asked to wake at: asking for a later time
 * than the one set changes nothing. Unref'd: it never keeps the process alive.
 */
export class WakeTimer {
  private timer: NodeJS.Timeout | null = null;
  private at = Number.POSITIVE_INFINITY;

  constructor(private readonly fire: () => void) {}

  /** Wakes at `at` (a time of `now`'s clock), unless an earlier wake-up is set. */
  wakeAt(at: number, now: number): void {
    if (at >= this.at) return;
    this.clear();
    this.at = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.at = Number.POSITIVE_INFINITY;
      this.fire();
    }, at - now);
    this.timer.unref();
  }

  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.at = Number.POSITIVE_INFINITY;
  }
}
